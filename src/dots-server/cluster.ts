import { Inject, Injectable, Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { hostname } from 'node:os';
import { AppConfig } from '../common/config.js';
import { DotsRepository } from './dots.repository.js';
import type { DotsNotification } from './dots.repository.js';
import type { DotsLobby, LobbyPeers, ListedGame } from './lobby.js';
import type { DotsRequest } from './protocol.js';

/** The channel every node listens on, for what concerns all: a node gone. */
const BROADCAST = 'dots_cluster';
/** How long a node waits for the answer to a request it sent to another node. */
const FORWARD_TIMEOUT_MS = 10_000;
/** How long after a lost listening connection the node listens again. */
const RELISTEN_MS = 1000;

/** A request forwarded to a node that is dead (or left): its games and seats are gone with it. */
export class HomeGone extends Error {
  constructor(readonly node: string) {
    super(`Dots node ${node} is gone`);
  }
}

/** The messages between nodes (JSON in a NOTIFY payload); `q` keeps identical ones of one commit apart. */
type Message =
  /** A request of a login connected to `f` (null: it logged in there, and sits at a game of this node). */
  | { k: 'req'; f: string; l: string; n: number; r: DotsRequest | null; q: number }
  /** Request `n` is done; `s` the game the login sits at on the answering node (null: none). */
  | { k: 'done'; f: string; l: string; n: number; s: number | null; q: number }
  /** Text for the login's connection (answers, pushes), and where it sits afterwards. */
  | { k: 'out'; f: string; l: string; t: string; s: number | null; q: number }
  /** The login's connection on `f` closed. */
  | { k: 'detach'; f: string; l: string; q: number }
  /** Close the login's connection: it logged in elsewhere. */
  | { k: 'kick'; f: string; l: string; q: number }
  /** Node `node` is dead or left. */
  | { k: 'gone'; f: string; node: string; q: number };
/** A message before it is numbered. */
type Unsent = Message extends infer M ? (M extends Message ? Omit<M, 'q'> : never) : never;

/**
 * One Dots lobby across the nodes on one PostgreSQL server (DATABASE_URL), through the database
 * alone: `dots_nodes` with heartbeats, `dots_logins` (which node serves a login), `dots_games.node`
 * (where a game lives), and LISTEN/NOTIFY for requests, answers and pushes between nodes. Each game
 * lives on the node it was created on; a player connected to another node has its requests sent
 * there and its answers and pushes sent back. Off with the embedded database (one process).
 */
@Injectable()
export class DotsCluster implements LobbyPeers {
  private readonly logger = new Logger('DotsCluster');
  /** With DATABASE_URL and a Dots server to run. */
  readonly enabled: boolean;
  readonly node: string;
  readonly leaseMs: number;
  private lobby: DotsLobby | null = null;
  private seq = 0;
  private nextRequest = 1;
  private readonly waiting = new Map<number, { node: string; resolve(seat: number | null): void; reject(error: Error): void; timer: NodeJS.Timeout }>();
  private outbox: DotsNotification[] = [];
  private sending: Promise<void> | null = null;
  /** Claims and releases of each login, one after the other in the order asked. */
  private readonly loginWork = new Map<string, Promise<unknown>>();
  private listening: { stop: AbortController; ready: Promise<{ closed: Promise<void> }> } | null = null;
  private relisten: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Whether the node has listened (it has had Dots players, so others may have seats at its games or players in them). */
  private listened = false;
  private readonly work = new Set<Promise<unknown>>();

  constructor(
    @Inject(AppConfig) config: AppConfig,
    private readonly repository: DotsRepository,
  ) {
    this.enabled = config.DATABASE_URL !== undefined && (config.DOTS_PORT !== 0 || config.DOTS_WS_PATH !== 'off');
    this.node = config.DOTS_NODE_ID || `${hostname()}:${config.DOTS_PORT !== 0 ? config.DOTS_PORT : `http${config.PORT}`}`;
    this.leaseMs = config.DOTS_NODE_LEASE_MS;
  }

  /** The lobby the messages of other nodes go to. */
  serve(lobby: DotsLobby): void {
    this.lobby = lobby;
  }

  /**
   * At start: whatever a run of this node before left (its row, its login claims) goes, so that its
   * games are claimed and ended like a dead node's; the node enters dots_nodes afterwards
   * ({@link register}). It listens from the first login on ({@link claim}).
   */
  async leaveRunBefore(): Promise<void> {
    await this.repository.removeNode(this.node);
  }

  async register(): Promise<void> {
    await this.repository.registerNode(this.node, `${hostname()}/${process.pid}`);
  }

  /** The heartbeat: false when another node declared this one dead meanwhile (its games were ended). */
  beat(): Promise<boolean> {
    return this.repository.beat(this.node);
  }

  /** Removes the nodes whose heartbeat ran out and tells every node (this one too) they are gone. */
  async removeDead(): Promise<string[]> {
    const dead = await this.repository.removeDeadNodes(this.node, this.leaseMs);
    for (const node of dead) this.post(BROADCAST, { k: 'gone', f: this.node, node });
    return dead;
  }

  /** A clean stop: the node tells the others it leaves, and leaves dots_nodes (its games are then ended by the others, or by its next start). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.relisten !== null) clearTimeout(this.relisten);
    try {
      if (this.listened) this.post(BROADCAST, { k: 'gone', f: this.node, node: this.node });
      while (this.sending !== null || this.work.size > 0) await Promise.allSettled([this.sending, ...this.work]);
      await this.repository.removeNode(this.node);
    } catch (error) {
      this.logger.warn(`leaving the Dots cluster: ${(error as Error).message}`);
    }
    const listening = this.listening;
    this.listening = null;
    if (listening !== null) {
      listening.stop.abort();
      // The connection goes back to the pool before the pool closes.
      await listening.ready.then(({ closed }) => closed).catch(() => undefined);
    }
    for (const [n, waiter] of this.waiting) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error('the Dots server is stopping'));
      this.waiting.delete(n);
    }
  }

  // LobbyPeers: what the lobby asks of the cluster.

  claim(login: string): Promise<boolean> {
    return this.inTurn(login, async () => {
      await this.listen();
      return this.repository.claimLogin(login, this.node);
    });
  }

  release(login: string): void {
    this.track(this.inTurn(login, () => this.repository.releaseLogin(login, this.node)));
  }

  async listed(): Promise<ListedGame[]> {
    return (await this.repository.gamesElsewhere(this.node)).map((row) => ({ id: row.id, state: row.state as ListedGame['state'], options: row.options, players: row.logins }));
  }

  homeOf(gameId: number): Promise<string | undefined> {
    return this.repository.homeOf(gameId, this.node);
  }

  seatsElsewhere(login: string): Promise<{ id: number; node: string }[]> {
    return this.repository.seatsElsewhere(login, this.node);
  }

  async forward(node: string, login: string, request: DotsRequest | null): Promise<number | null> {
    await this.listen();
    const n = this.nextRequest++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(n);
        reject(new Error(`Dots node ${node} did not answer within ${FORWARD_TIMEOUT_MS} ms`));
      }, FORWARD_TIMEOUT_MS);
      this.waiting.set(n, { node, resolve, reject, timer });
      this.post(channelOf(node), { k: 'req', f: this.node, l: login, n, r: request });
    });
  }

  detach(node: string, login: string): void {
    this.post(channelOf(node), { k: 'detach', f: this.node, l: login });
  }

  deliver(node: string, login: string, text: string, seat: number | null): void {
    this.post(channelOf(node), { k: 'out', f: this.node, l: login, t: text, s: seat });
  }

  kick(node: string, login: string): void {
    this.post(channelOf(node), { k: 'kick', f: this.node, l: login });
  }

  // The listening connection and the messages.

  /** Listens on this node's channel and the broadcast one (once; again after the connection was lost). */
  private async listen(): Promise<void> {
    if (this.stopped) throw new Error('the Dots server is stopping');
    if (this.listening !== null) return void (await this.listening.ready);
    const stop = new AbortController();
    const ready = this.repository
      .listen([channelOf(this.node), BROADCAST], { notified: (notification) => this.received(notification), lost: (error) => this.lost(stop, error) }, stop.signal)
      .catch((error: unknown) => {
        if (this.listening?.stop === stop) this.listening = null;
        throw error;
      });
    this.listening = { stop, ready };
    this.listened = true;
    await ready;
  }

  private lost(stop: AbortController, error: Error): void {
    if (this.listening?.stop !== stop) return;
    this.listening = null;
    this.logger.error(`the Dots node's listening connection broke (${error.message}); listening again in ${RELISTEN_MS} ms`);
    this.relisten ??= setTimeout(() => {
      this.relisten = null;
      if (!this.stopped) this.listen().catch((again: unknown) => this.logger.error(`listening again failed: ${(again as Error).message}`));
    }, RELISTEN_MS);
    this.relisten.unref();
  }

  private post(channel: string, message: Unsent): void {
    const payload = JSON.stringify({ ...message, q: this.seq++ });
    if (Buffer.byteLength(payload) >= 8000) {
      this.logger.error(`a Dots message of ${Buffer.byteLength(payload)} bytes is too long for NOTIFY; dropped`);
      return;
    }
    this.outbox.push({ channel, payload });
    this.sending ??= this.flush();
  }

  /** Sends what the outbox holds, one statement at a time (so in order), until it is empty. */
  private async flush(): Promise<void> {
    try {
      while (this.outbox.length > 0) {
        const batch = this.outbox;
        this.outbox = [];
        try {
          await this.repository.notify(batch);
        } catch (error) {
          this.logger.error(`${batch.length} Dots message(s) to other nodes were lost: ${(error as Error).message}`);
        }
      }
    } finally {
      this.sending = null;
    }
  }

  private received({ payload }: DotsNotification): void {
    let message: Message;
    try {
      message = JSON.parse(payload) as Message;
    } catch {
      return;
    }
    const lobby = this.lobby;
    if (lobby === null) return;
    switch (message.k) {
      case 'req': {
        const { f, l, n, r } = message;
        this.track(
          lobby.serveRemote(f, l, r).then(
            (seat) => this.post(channelOf(f), { k: 'done', f: this.node, l, n, s: seat }),
            (error: unknown) => {
              this.logger.error(`a request of ${l} from ${f} failed: ${(error as Error).message}`);
              this.post(channelOf(f), { k: 'done', f: this.node, l, n, s: null });
            },
          ),
        );
        return;
      }
      case 'done': {
        const waiter = this.waiting.get(message.n);
        if (waiter === undefined) return;
        this.waiting.delete(message.n);
        clearTimeout(waiter.timer);
        waiter.resolve(message.s);
        return;
      }
      case 'out':
        return lobby.delivered(message.f, message.l, message.t, message.s);
      case 'detach':
        return lobby.remoteDetached(message.f, message.l);
      case 'kick':
        return lobby.kicked(message.l);
      case 'gone': {
        if (message.node === this.node) return;
        for (const [n, waiter] of this.waiting) {
          if (waiter.node !== message.node) continue;
          this.waiting.delete(n);
          clearTimeout(waiter.timer);
          waiter.reject(new HomeGone(message.node));
        }
        return lobby.nodeGone(message.node);
      }
    }
  }

  private inTurn<T>(login: string, work: () => Promise<T>): Promise<T> {
    const next = (this.loginWork.get(login) ?? Promise.resolve()).catch(() => undefined).then(work);
    this.loginWork.set(login, next);
    void next
      .catch(() => undefined)
      .then(() => {
        if (this.loginWork.get(login) === next) this.loginWork.delete(login);
      });
    return next;
  }

  private track(work: Promise<unknown>): void {
    const tracked = work.catch((error: unknown) => this.logger.error(`Dots cluster: ${(error as Error).message}`));
    this.work.add(tracked);
    void tracked.finally(() => this.work.delete(tracked));
  }
}

/** A node's channel: a hash of its name (a channel name is an identifier of at most 63 bytes). */
function channelOf(node: string): string {
  return `dots_${createHash('sha256').update(node).digest('hex').slice(0, 24)}`;
}
