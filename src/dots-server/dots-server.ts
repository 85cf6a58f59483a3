import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { AppConfig } from '../common/config.js';
import { systemClock } from './clock.js';
import { DotsCluster } from './cluster.js';
import { ConnectionBudget } from './connection-budget.js';
import { DotsGuard } from './guard.js';
import { DotsLobby } from './lobby.js';
import { DotsServerStore } from './server-store.js';
import { DotsTcpServer, TlsFiles, TransportLimits } from './tcp-server.js';
import { DotsWebSocketBridge } from './ws-bridge.js';

/**
 * The live Dots server inside the archive's process: started with the HTTP API (unless DOTS_PORT
 * is 0) and stopped with it. Tests call {@link listen} with port 0 themselves.
 */
@Injectable()
export class DotsServer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DotsServer');
  readonly lobby: DotsLobby;
  readonly tcp: DotsTcpServer;
  private bridge: DotsWebSocketBridge | null = null;
  /** DOTS_MAX_CONNECTIONS and DOTS_MAX_CONNECTIONS_PER_ADDRESS, over TCP and the WebSocket bridge together. */
  readonly connections: ConnectionBudget;
  /** The password rule, REGs per address, the back-off of failed LOGs (in this node's memory). */
  readonly guard: DotsGuard;
  private recovering: Promise<void> = Promise.resolve();
  /** Cluster: the heartbeat and the look for dead nodes, every third of DOTS_NODE_LEASE_MS. */
  private ticker: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly store: DotsServerStore,
    private readonly http: HttpAdapterHost,
    private readonly cluster: DotsCluster,
  ) {
    const log = (message: string, error?: unknown) => this.logger.error(`${message}: ${(error as Error | undefined)?.message ?? ''}`);
    this.guard = new DotsGuard(
      {
        minPassword: config.DOTS_MIN_PASSWORD,
        backoffMs: config.DOTS_LOGIN_BACKOFF_MS,
        backoffMaxMs: config.DOTS_LOGIN_BACKOFF_MAX_MS,
        failureMemoryMs: config.DOTS_LOGIN_FAILURE_MEMORY_MS,
        registrationsPerAddress: config.DOTS_REGISTRATIONS_PER_ADDRESS,
        registrationWindowMs: config.DOTS_REGISTRATION_WINDOW_MS,
      },
      systemClock,
    );
    this.lobby = new DotsLobby(store, systemClock, log, cluster.enabled ? cluster : null, this.guard);
    cluster.serve(this.lobby);
    this.connections = new ConnectionBudget(config.DOTS_MAX_CONNECTIONS, config.DOTS_MAX_CONNECTIONS_PER_ADDRESS);
    this.tcp = new DotsTcpServer(this.lobby, this.limits, this.connections, this.tlsFiles());
  }

  get limits(): TransportLimits {
    return {
      maxLine: this.config.DOTS_MAX_LINE,
      idleTimeoutMs: this.config.DOTS_IDLE_TIMEOUT_MS,
      maxPendingBytes: this.config.DOTS_MAX_PENDING_BYTES,
      loginTimeoutMs: this.config.DOTS_LOGIN_TIMEOUT_MS,
    };
  }

  /** DOTS_TLS_CERT and DOTS_TLS_KEY, read at start (a file that cannot be read stops it); null: plain TCP. */
  private tlsFiles(): TlsFiles | null {
    if (this.config.DOTS_TLS_CERT === '' || this.config.DOTS_TLS_KEY === '') return null;
    return { cert: readFileSync(this.config.DOTS_TLS_CERT), key: readFileSync(this.config.DOTS_TLS_KEY) };
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.cluster.enabled) await this.joinCluster();
    // Interrupted games are ended and archived in the background: the start does not wait for the analysis.
    else this.recovering = this.store.recover().catch((error: unknown) => this.logger.error(`ending interrupted Dots games failed: ${(error as Error).message}`));
    const server = this.http.httpAdapter?.getHttpServer() as Server | undefined;
    if (this.config.DOTS_WS_PATH !== 'off' && server !== undefined) {
      this.bridge = new DotsWebSocketBridge(this.lobby, this.limits, this.config.DOTS_WS_PATH, this.connections, {
        origins: this.config.dotsWsOrigins,
        trustProxyHops: this.config.TRUST_PROXY_HOPS,
      });
      this.bridge.attach(server);
    }
    if (this.config.DOTS_PORT === 0) return;
    const port = await this.listen(this.config.DOTS_PORT, this.config.DOTS_HOST);
    this.logger.log(`Dots server listening on ${this.config.DOTS_HOST}:${port}${this.tcp.secure ? ' (TLS)' : ''}`);
  }

  /** Starts the TCP listener; resolves with the port bound. */
  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return this.tcp.listen(port, host);
  }

  /** Waits until the interrupted games of the start are ended and archived. */
  recovered(): Promise<void> {
    return this.recovering;
  }

  /** Before the database closes (its module ends in onApplicationShutdown): the last saves still need it. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.ticker !== null) clearInterval(this.ticker);
    this.bridge?.close();
    await this.tcp.close();
    await this.lobby.shutdown();
    await this.recovering;
    if (this.cluster.enabled) await this.cluster.stop();
  }

  /**
   * Cluster: before any connection is served, the games of this node's run before (and of any dead
   * node) are ended; the node then enters dots_nodes and beats. Their archiving goes on in the background.
   */
  private async joinCluster(): Promise<void> {
    try {
      await this.cluster.leaveRunBefore();
      const ended = await this.store.endOrphans();
      await this.cluster.register();
      this.archiveInBackground(ended);
    } catch (error) {
      this.logger.error(`joining the Dots cluster failed (the heartbeat tries again): ${(error as Error).message}`);
    }
    this.ticker = setInterval(() => void this.tick(), Math.max(100, Math.floor(this.cluster.leaseMs / 3)));
    this.ticker.unref();
  }

  /** The heartbeat; nodes whose heartbeat ran out are removed and their games ended and archived. */
  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      if (!(await this.cluster.beat())) {
        this.logger.error('another Dots node took this one for dead (its heartbeat came too late) and ended its games: its connections are closed');
        this.lobby.abandon();
        await this.cluster.register();
      }
      await this.cluster.removeDead();
      this.archiveInBackground(await this.store.endOrphans());
    } catch (error) {
      this.logger.error(`Dots cluster heartbeat: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
  }

  private archiveInBackground(rows: Awaited<ReturnType<DotsServerStore['endOrphans']>>): void {
    if (rows.length === 0) return;
    const before = this.recovering;
    const archiving = this.store.archiveEnded(rows);
    this.recovering = Promise.all([before, archiving]).then(() => undefined);
  }
}
