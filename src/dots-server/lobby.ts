import { DotsGame } from '../rules/dots/index.js';
import type { DotsEnd } from '../rules/dots/index.js';
import { writeTranscript } from '../formats/families/dots/transcript.js';
import type { EndReason, StopReason, TranscriptEvent } from '../formats/families/dots/transcript.js';
import type { Clock, Timer } from './clock.js';
import type { DotsGuard, LoginOutcome } from './guard.js';
import { AnswerCode, BadRequest, DotsRequest, GameOptions, formatAnswer } from './protocol.js';
import type { DotsStore, SavedGame } from './store.js';

/** One connection as the lobby sees it: where answers and pushes go. */
export interface DotsClient {
  send(text: string): void;
  /** Ends the connection (a second LOG of its account took over). */
  close(): void;
}

export interface Session {
  readonly id: number;
  readonly client: DotsClient;
  login: string | null;
  /** For a player connected to another node of the cluster: that node (its requests come from there). */
  readonly via?: string;
  /** The client's address (what the guard's per-address limits count by); '' when unknown. */
  readonly address: string;
}

/** A game as GLS lists it. */
export interface ListedGame {
  readonly id: number;
  readonly state: 'waiting' | 'running';
  readonly options: GameOptions;
  readonly players: readonly string[];
}

/**
 * The other nodes of a cluster, as the lobby sees them (cluster.ts, over PostgreSQL); null with one
 * process. A game lives on the node it was created on; a player connected to another node has its
 * requests for that game sent there, and its answers and pushes sent back.
 */
export interface LobbyPeers {
  /** Claims the login for this node; false when it is live on another node. */
  claim(login: string): Promise<boolean>;
  /** Gives the login back (no connection of this node has it). */
  release(login: string): void;
  /** The waiting and running games of the other nodes. */
  listed(): Promise<ListedGame[]>;
  /** The node a game of another node lives on, if that game is open. */
  homeOf(gameId: number): Promise<string | undefined>;
  /** Open games of other nodes that name the login among their players, newest first. */
  seatsElsewhere(login: string): Promise<{ id: number; node: string }[]>;
  /**
   * Has `node` handle the login's request as if it were connected there (null: the login has just
   * logged in here: it takes its seat there again); resolves, once its answer has been delivered,
   * with the game the login sits at there afterwards (null: none). Rejects with HomeGone when the
   * node is dead or left.
   */
  forward(node: string, login: string, request: DotsRequest | null): Promise<number | null>;
  /** The login's connection here closed (it sits at a game of `node`). */
  detach(node: string, login: string): void;
  /** Text for the login's connection on `node`, and the game it sits at here (null: none). */
  deliver(node: string, login: string, text: string, seat: number | null): void;
  /** The login's connection on `node` is to be closed (it logged in here). */
  kick(node: string, login: string): void;
}

/** Thrown by {@link LobbyPeers.forward} when the node is gone (cluster.ts makes it). */
export interface NodeGoneError extends Error {
  readonly node: string;
}

/** The requests a player sends to the node of the game it sits at. */
const FORWARDED = new Set<DotsRequest['code']>(['TRN', 'SRD', 'FIN', 'LGT']);

/** Something went wrong that the lobby reports without stopping (an archive upload that failed). */
export type LobbyLog = (message: string, error?: unknown) => void;

/** A game of the server: waiting for players, then running, then gone from the lobby. */
interface Table {
  readonly id: number;
  readonly options: GameOptions;
  /** Logins by seat, in joining order (the creator first). */
  readonly seats: string[];
  state: 'waiting' | 'running';
  engine: DotsGame | null;
  /** Clock time the game started; ISO text of it. */
  startedAt: number;
  started: string;
  readonly events: TranscriptEvent[];
  /** Logins that left the running game (FIN, LGT): no more pushes for them. */
  readonly gone: Set<string>;
  timer: Timer | null;
  /** The seat the running timer is for. */
  timerSeat: number;
}

/** A game's row as the next commit writes it; `archive`: store the game in the archive once committed. */
interface PendingSave {
  game(): SavedGame;
  readonly archive: boolean;
}

/** How long after a failed commit the changes it held are written again, in ms. */
export const SAVE_RETRY_MS = 1000;

/**
 * The Dots server's lobby and games, without sockets or SQL: sessions send typed requests, the
 * lobby answers each with one answer of the design (200…408) and pushes `GSC` and the 204 state to
 * every player of a game whose state changed. Timers run on the injected clock.
 *
 * Choices the design leaves open (docs/dots-server.md says them to clients):
 * - a second LOG of an account from another connection takes over: the older connection is closed
 *   and the account keeps its seat;
 * - a game starts when its last seat is taken; the players move in joining order;
 * - a connection that goes away leaves a waiting game at once; in a running game it simply stops
 *   moving, so its move timer runs out (the player stops, as with SRD) unless the account logs in
 *   again first;
 * - FIN and LGT in a running game stop the player (the others play on) and free them for another game.
 */
export class DotsLobby {
  private nextSession = 1;
  private readonly byLogin = new Map<string, Session>();
  private readonly tables = new Map<number, Table>();
  /** The table each login sits at (waiting or running, not left). */
  private readonly seatOf = new Map<string, Table>();
  /** Saves and archive uploads under way, so that a shutdown can wait for them. */
  private readonly pending = new Set<Promise<void>>();
  /** Games changed since the last commit began, by id: the next commit writes them all. */
  private readonly dirty = new Map<number, PendingSave>();
  /** The commit being written, and the one gathering the changes made meanwhile. */
  private writing: Promise<void> | null = null;
  private gathering: Promise<void> | null = null;
  private retryRound: Timer | null = null;
  /** Cluster: the game of another node each login of this node sits at, and that node. */
  private readonly remote = new Map<string, { game: number; node: string }>();
  /** Cluster: the players of this node's games connected to other nodes, by login. */
  private readonly proxies = new Map<string, Session>();
  /** Cluster: LOGs under way, by login (their claim must not be given back meanwhile). */
  private readonly loggingIn = new Map<string, number>();

  constructor(
    private readonly store: DotsStore,
    private readonly clock: Clock,
    private readonly log: LobbyLog = () => undefined,
    private readonly peers: LobbyPeers | null = null,
    /** The password rule, REGs per address and the back-off of failed LOGs (guard.ts); null: none (tests). */
    private readonly guard: DotsGuard | null = null,
  ) {}

  open(client: DotsClient, via?: string, address = ''): Session {
    return { id: this.nextSession++, client, login: null, via, address };
  }

  /** Answers a request line that could not be read (401). */
  refuse(session: Session, error: BadRequest): void {
    session.client.send(error.answer());
  }

  /**
   * Answers one request, then pushes what it changed. A request that changes a game is answered
   * once the change is committed (with every change made meanwhile, in one commit); a failure of the
   * store is answered 402.
   */
  async handle(session: Session, request: DotsRequest): Promise<void> {
    try {
      await this.dispatch(session, request);
    } catch (error) {
      this.log(`${request.code} failed`, error);
      session.client.send(formatAnswer(402, 'internal_error'));
    }
  }

  /** The connection is gone: the account is logged out; a waiting game loses the seat. */
  close(session: Session): void {
    const login = session.login;
    session.login = null;
    if (login === null || this.byLogin.get(login) !== session) return;
    this.byLogin.delete(login);
    if (session.via !== undefined && this.proxies.get(login) === session) this.proxies.delete(login);
    const away = this.remote.get(login);
    if (away !== undefined) {
      this.remote.delete(login);
      this.peers?.detach(away.node, login);
    }
    if (session.via === undefined) this.releaseIfFree(login);
    const table = this.seatOf.get(login);
    // In a running game the seat stays: the move timer decides (or a new LOG resumes it).
    if (table?.state === 'waiting') this.leaveWaiting(table, login);
  }

  /** Games waiting and running, by id (for GLS and the tests). */
  games(): readonly { id: number; state: 'waiting' | 'running'; options: GameOptions; players: readonly string[] }[] {
    return [...this.tables.values()].sort((a, b) => a.id - b.id).map((t) => ({ id: t.id, state: t.state, options: t.options, players: [...t.seats] }));
  }

  /** Whether the session's player sits at a game, waiting or running (then silence is no idleness). */
  isPlaying(session: Session): boolean {
    return session.login !== null && this.byLogin.get(session.login) === session && (this.seatOf.has(session.login) || this.remote.has(session.login));
  }

  /** Stops every timer and waits for saves and uploads under way; running games stay running in the store (a restart ends them). */
  async shutdown(): Promise<void> {
    for (const table of this.tables.values()) table.timer?.cancel();
    // Whatever a failed commit left unwritten, so that the next start can archive it as unfinished.
    this.retryRound?.cancel();
    this.retryRound = null;
    this.track(this.durable());
    await this.settled();
  }

  /** Resolves once every save and archive upload started so far has settled. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  // Cluster: what other nodes ask of this one (cluster.ts calls these).

  /**
   * A request of a login connected to node `via`, for the game it sits at here (or a game here it
   * joins); null: the login has just logged in there and takes its seat here again (the state of a
   * running game follows). Its answers and pushes go back to `via`. Resolves with the game the login
   * sits at here afterwards (null: none).
   */
  async serveRemote(via: string, login: string, request: DotsRequest | null): Promise<number | null> {
    if (request === null) {
      const table = this.seatOf.get(login);
      if (table === undefined) return null;
      const proxy = this.proxyFor(via, login);
      if (table.state === 'running') {
        const text = this.stateAnswers(table);
        await new Promise<void>((resolve) =>
          this.afterCommit(() => {
            proxy.client.send(text);
            resolve();
          }),
        );
      }
      return table.id;
    }
    const proxy = this.proxyFor(via, login);
    await this.handle(proxy, request);
    const seat = this.seatOf.get(login)?.id ?? null;
    // Its answer and the pushes of the same commit are delivered: a player at no game here needs no stand-in.
    if (seat === null && this.proxies.get(login) === proxy) this.close(proxy);
    return seat;
  }

  /** The connection of a player of this node's games on node `via` closed. */
  remoteDetached(via: string, login: string): void {
    const proxy = this.proxies.get(login);
    if (proxy?.via === via) this.close(proxy);
  }

  /** Text from the node of the game the login sits at (or sat at), for its connection here. */
  delivered(from: string, login: string, text: string, seat: number | null): void {
    const session = this.byLogin.get(login);
    if (seat !== null && session !== undefined && session.via === undefined) this.remote.set(login, { game: seat, node: from });
    else if (seat === null && this.remote.get(login)?.node === from) this.remote.delete(login);
    // Nobody here any more for a seat there: the seat is left as a connection that went away.
    if (seat !== null && (session === undefined || session.via !== undefined)) this.peers?.detach(from, login);
    if (session?.via === undefined) session?.client.send(text);
  }

  /** The login logged in on another node: its connection here is closed. */
  kicked(login: string): void {
    const session = this.byLogin.get(login);
    if (session === undefined || session.via !== undefined) return;
    session.login = null;
    this.byLogin.delete(login);
    const away = this.remote.get(login);
    this.remote.delete(login);
    if (away !== undefined) this.peers?.detach(away.node, login);
    session.client.close();
  }

  /**
   * Node `node` is dead or left: its players here sit nowhere any more (their games are ended as
   * unfinished by the node that finds it dead), and its connections to this node's games are gone.
   */
  nodeGone(node: string): void {
    for (const [login, away] of [...this.remote]) if (away.node === node) this.remote.delete(login);
    for (const proxy of [...this.proxies.values()]) if (proxy.via === node) this.close(proxy);
  }

  /**
   * Another node took this one for dead and ended its games (its heartbeat came too late): every
   * game here is dropped without a save, and every connection closed.
   */
  abandon(): void {
    for (const table of this.tables.values()) table.timer?.cancel();
    this.tables.clear();
    this.seatOf.clear();
    this.dirty.clear();
    this.remote.clear();
    this.proxies.clear();
    const sessions = [...this.byLogin.values()];
    this.byLogin.clear();
    for (const session of sessions) {
      session.login = null;
      // A player connected to another node keeps its connection: its next request there finds it at no game here.
      if (session.via === undefined) session.client.close();
    }
  }

  /** The session that stands for a player connected to node `via` (made, and logged in, when needed). */
  private proxyFor(via: string, login: string): Session {
    const known = this.proxies.get(login);
    if (known !== undefined && known.via === via && this.byLogin.get(login) === known) return known;
    const proxy: Session = this.open(
      {
        send: (text) => {
          const seat = this.seatOf.get(login)?.id ?? null;
          this.peers?.deliver(via, login, text, seat);
          // The game ended (or the player left it): the stand-in goes once this commit's pushes are out.
          if (seat === null) setImmediate(() => this.proxies.get(login) === proxy && !this.seatOf.has(login) && this.close(proxy));
        },
        close: () => this.peers?.kick(via, login),
      },
      via,
    );
    this.proxies.set(login, proxy);
    this.takeOver(proxy, login);
    return proxy;
  }

  /** LOG once the request is read: the password, the claim of the login (cluster), the takeover, the state of its game. */
  private async logIn(session: Session, login: string, password: string, send: (code: AnswerCode, description?: string) => void): Promise<void> {
    if (!(await this.passwordChecked(session, login, password, send))) return;
    if (session.login === login) return send(200);
    if (this.peers !== null && !(await this.peers.claim(login))) return send(401, 'not_now the login is live on another node');
    this.takeOver(session, login);
    send(200);
    // Back at a running game: the state as it is now, after the pushes already waiting for their commit.
    const table = this.seatOf.get(login);
    if (table?.state === 'running') {
      const text = this.stateAnswers(table);
      await new Promise<void>((resolve) =>
        this.afterCommit(() => {
          session.client.send(text);
          resolve();
        }),
      );
    } else if (table === undefined && this.peers !== null) {
      await this.sitElsewhere(session, login);
    }
  }

  /** The session becomes the login's; a connection that had it is closed. */
  private takeOver(session: Session, login: string): void {
    const before = this.byLogin.get(login);
    if (before !== undefined && before !== session) {
      before.login = null;
      if (before.via !== undefined && this.proxies.get(login) === before) this.proxies.delete(login);
      before.client.close();
    }
    this.byLogin.set(login, session);
    session.login = login;
  }

  /** Cluster: a login that logs in here and sits at a game of another node takes its seat there again. */
  private async sitElsewhere(session: Session, login: string): Promise<void> {
    for (const seat of await this.peers!.seatsElsewhere(login)) {
      if (session.login !== login) return;
      // Pushes may come before the answer: they are the login's from now on.
      this.remote.set(login, { game: seat.id, node: seat.node });
      let game: number | null;
      try {
        game = await this.peers!.forward(seat.node, login, null);
      } catch (error) {
        this.log(`taking the seat of ${login} at game ${seat.id} again failed`, error);
        game = null;
      }
      if (session.login !== login) return;
      if (game !== null) return void this.remote.set(login, { game, node: seat.node });
      if (this.remote.get(login)?.node === seat.node) this.remote.delete(login);
    }
  }

  /**
   * Cluster: a request of a player of this node for a game of node `node`: handled there, answered
   * from there. If that node is gone, so is the seat, and the request is handled here as from a
   * player at no game.
   */
  private async forwardTo(session: Session, login: string, node: string, request: DotsRequest): Promise<void> {
    let seat: number | null;
    try {
      seat = await this.peers!.forward(node, login, request);
    } catch (error) {
      if ((error as Partial<NodeGoneError>).node !== node) throw error;
      if (this.remote.get(login)?.node === node) this.remote.delete(login);
      return this.dispatch(session, request);
    }
    if (session.login !== login || this.byLogin.get(login) !== session) {
      // The connection closed meanwhile: a seat it took there is left again.
      if (seat !== null && !this.byLogin.has(login)) this.peers!.detach(node, login);
      return;
    }
    if (seat !== null) this.remote.set(login, { game: seat, node });
    else if (this.remote.get(login)?.node === node) this.remote.delete(login);
    if (request.code === 'LGT') {
      this.byLogin.delete(login);
      session.login = null;
      this.remote.delete(login);
      this.releaseIfFree(login);
    }
  }

  /** Cluster: gives the login's claim back once no connection of this node has it and no LOG of it is under way. */
  private releaseIfFree(login: string): void {
    if (this.peers === null || this.loggingIn.has(login)) return;
    const holder = this.byLogin.get(login);
    if (holder === undefined || holder.via !== undefined) this.peers.release(login);
  }

  /**
   * LOG's password check, within the guard's back-off: false once refused (403 `slow_down` while
   * the login or the address must wait, 403 `wrong_login_or_password`).
   */
  private async passwordChecked(session: Session, login: string, password: string, send: (code: AnswerCode, description?: string) => void): Promise<boolean> {
    if (this.guard === null) {
      if (await this.store.verify(login, password)) return true;
      send(403, 'wrong_login_or_password');
      return false;
    }
    const gate = this.guard.beginLogin(login, session.address);
    if (gate.ticket === undefined) {
      send(403, `slow_down retry in ${Math.ceil(gate.waitMs)} ms`);
      return false;
    }
    let outcome: LoginOutcome = 'unknown';
    try {
      outcome = (await this.store.verify(login, password)) ? 'succeeded' : 'failed';
    } finally {
      // A store that failed (402) told nothing of the password: 'unknown' only takes the LOG's count back.
      this.guard.endLogin(gate.ticket, outcome);
    }
    if (outcome === 'failed') send(403, 'wrong_login_or_password');
    return outcome === 'succeeded';
  }

  /** REG: the password rule and the address's REGs (401), then the store (400 when the login, or one it could be taken for, exists). */
  private async register(session: Session, login: string, password: string, send: (code: AnswerCode, description?: string) => void): Promise<void> {
    if (this.guard !== null) {
      const problem = this.guard.passwordProblem(password);
      if (problem !== null) return send(401, `bad_parameter ${problem}`);
      const waitMs = this.guard.registration(session.address);
      if (waitMs > 0) return send(401, `slow_down retry in ${Math.ceil(waitMs)} ms`);
    }
    const created = await this.store.register(login, password);
    return created ? send(200) : send(400, 'login_taken');
  }

  private async dispatch(session: Session, request: DotsRequest): Promise<void> {
    const send = (code: AnswerCode, description?: string, body?: readonly string[]): void => session.client.send(formatAnswer(code, description, body));
    if (request.code === 'REG') return this.register(session, request.login, request.password, send);
    if (request.code === 'LOG') {
      if (session.login !== null && session.login !== request.login) return send(401, 'not_now log out (LGT) first');
      if (this.peers === null) return this.logIn(session, request.login, request.password, send);
      // Cluster: the login's claim is kept while a LOG of it is under way here.
      this.loggingIn.set(request.login, (this.loggingIn.get(request.login) ?? 0) + 1);
      try {
        return await this.logIn(session, request.login, request.password, send);
      } finally {
        const left = this.loggingIn.get(request.login)! - 1;
        if (left === 0) this.loggingIn.delete(request.login);
        else this.loggingIn.set(request.login, left);
        this.releaseIfFree(request.login);
      }
    }
    const login = session.login;
    if (login === null) return send(404, 'not_logged_in');
    const away = this.remote.get(login);
    if (away !== undefined && FORWARDED.has(request.code)) return this.forwardTo(session, login, away.node, request);
    const table = this.seatOf.get(login);
    switch (request.code) {
      case 'LGT': {
        const answered = this.acknowledge(session);
        if (table !== undefined) this.leave(table, login, 'logout');
        this.byLogin.delete(login);
        session.login = null;
        if (session.via !== undefined && this.proxies.get(login) === session) this.proxies.delete(login);
        else this.releaseIfFree(login);
        return answered;
      }
      case 'UST': {
        const stats = await this.store.statistics(login);
        return send(201, undefined, [`LOG ${login}`, `NPG ${stats.played}`, `NPW ${stats.won}`, `NPL ${stats.lost}`, `NPD ${stats.drawn}`]);
      }
      case 'GLS':
        return send(202, undefined, this.listing(this.peers === null ? [] : await this.peers.listed()));
      case 'NEW': {
        if (table !== undefined) return send(401, `not_now already in game ${table.id}`);
        if (away !== undefined) return send(401, `not_now already in game ${away.game}`);
        const options: GameOptions = { players: request.players, width: request.width, height: request.height, seconds: request.seconds, extraMove: request.extraMove };
        const id = await this.store.createGame(options, login);
        // The account may have logged out, moved on or sat down elsewhere while the id was made.
        if (session.login !== login || this.seatOf.has(login) || this.remote.has(login)) {
          this.dirty.set(id, { game: () => ({ id, state: 'abandoned', options, players: [], transcript: null }), archive: false });
          this.track(this.durable());
          return send(401, 'not_now the session changed while the game was created');
        }
        const created: Table = {
          id,
          options,
          seats: [login],
          state: 'waiting',
          engine: null,
          startedAt: 0,
          started: '',
          events: [],
          gone: new Set(),
          timer: null,
          timerSeat: -1,
        };
        this.tables.set(id, created);
        this.seatOf.set(login, created);
        return send(203, undefined, [`GID ${id}`]);
      }
      case 'JOI': {
        if (table !== undefined) return send(401, `not_now already in game ${table.id}`);
        if (away !== undefined) return send(401, `not_now already in game ${away.game}`);
        const wanted = this.tables.get(request.gameId);
        if (wanted === undefined) {
          // Cluster: a game of another node is joined there.
          const home = this.peers === null ? undefined : await this.peers.homeOf(request.gameId);
          if (home === undefined) return send(405, 'no_such_game');
          return this.forwardTo(session, login, home, request);
        }
        if (wanted.state !== 'waiting' || wanted.seats.length >= wanted.options.players) return send(406, 'game_full');
        wanted.seats.push(login);
        this.seatOf.set(login, wanted);
        const answered = this.acknowledge(session);
        if (wanted.seats.length === wanted.options.players) this.start(wanted);
        else this.save(wanted);
        return answered;
      }
      case 'FIN': {
        if (table === undefined) return send(407, 'not_in_game');
        const answered = this.acknowledge(session);
        this.leave(table, login, 'fin');
        return answered;
      }
      case 'SRD': {
        if (table === undefined) return send(407, 'not_in_game');
        if (table.state !== 'running') return send(401, 'not_now the game has not started');
        const seat = table.seats.indexOf(login);
        const answered = this.acknowledge(session);
        if (!table.engine!.isStopped(seat)) this.stop(table, seat, 'srd');
        return answered;
      }
      case 'TRN': {
        if (table === undefined) return send(407, 'not_in_game');
        if (table.state !== 'running') return send(408, 'not_started');
        const engine = table.engine!;
        const seat = table.seats.indexOf(login);
        if (engine.isStopped(seat)) return send(408, 'stopped');
        if (engine.toMove !== seat) return send(408, 'not_your_turn');
        const reason = engine.illegality(request.y, request.x, seat);
        if (reason !== null) return send(408, reason);
        engine.play(request.y, request.x);
        table.events.push({ kind: 'move', seat, x: request.x, y: request.y, at: this.elapsed(table) });
        // 200 only once the move is committed: a crash after the answer keeps it.
        const answered = this.acknowledge(session);
        this.changed(table, true);
        return answered;
      }
    }
  }

  /** 202 body: a block per game (this node's and `elsewhere`, by id), blank lines between blocks. */
  private listing(elsewhere: readonly ListedGame[]): string[] {
    const lines: string[] = [];
    for (const game of [...this.games(), ...elsewhere].sort((a, b) => a.id - b.id)) {
      if (lines.length > 0) lines.push('');
      const { options } = game;
      lines.push(
        `GID ${game.id}`,
        `GPM ${options.players}`,
        `GPC ${game.players.length}`,
        `GAS ${options.width} ${options.height}`,
        `GTT ${options.seconds}`,
        `GET ${options.extraMove ? 1 : 0}`,
        `GUL ${game.players.join(' ')}`,
      );
    }
    return lines;
  }

  private start(table: Table): void {
    const { options } = table;
    table.state = 'running';
    table.engine = new DotsGame({ width: options.width, height: options.height, players: options.players, extraMove: options.extraMove, centralStart: true });
    table.startedAt = this.clock.now();
    table.started = new Date(table.startedAt).toISOString();
    this.changed(table, true);
  }

  private elapsed(table: Table): number {
    return this.clock.now() - table.startedAt;
  }

  private leave(table: Table, login: string, why: StopReason): void {
    if (table.state === 'waiting') return this.leaveWaiting(table, login);
    this.seatOf.delete(login);
    table.gone.add(login);
    const seat = table.seats.indexOf(login);
    if (!table.engine!.isStopped(seat)) this.stop(table, seat, why);
  }

  private leaveWaiting(table: Table, login: string): void {
    table.seats.splice(table.seats.indexOf(login), 1);
    this.seatOf.delete(login);
    if (table.seats.length > 0) return this.save(table);
    this.tables.delete(table.id);
    const abandoned: SavedGame = { id: table.id, state: 'abandoned', options: table.options, players: [], transcript: null };
    this.dirty.set(table.id, { game: () => abandoned, archive: false });
    this.track(this.durable());
  }

  private stop(table: Table, seat: number, why: StopReason): void {
    table.engine!.stop(seat);
    table.events.push({ kind: 'stop', seat, why, at: this.elapsed(table) });
    this.changed(table, false);
  }

  /**
   * After a move or a stop: the game ends if the rules say so; otherwise the move timer restarts
   * when a dot was placed or the turn passed to another player. Every player still at the table
   * gets GSC and the state.
   */
  private changed(table: Table, moved: boolean): void {
    const engine = table.engine!;
    const ending = engine.ending();
    if (ending !== null) return this.finish(table, ending);
    if (moved || engine.toMove !== table.timerSeat) {
      table.timer?.cancel();
      table.timerSeat = engine.toMove;
      const seat = engine.toMove;
      table.timer = this.clock.schedule(table.options.seconds * 1000, () => {
        table.timer = null;
        if (this.tables.get(table.id) === table && !engine.isStopped(seat) && engine.toMove === seat) this.stop(table, seat, 'timeout');
      });
    }
    this.push(table, null);
    this.save(table);
  }

  private finish(table: Table, ending: DotsEnd): void {
    const engine = table.engine!;
    table.timer?.cancel();
    table.timer = null;
    const { scores } = engine.finalScore();
    this.push(table, scores);
    this.tables.delete(table.id);
    for (const login of table.seats) if (this.seatOf.get(login) === table) this.seatOf.delete(login);
    const saved = this.saved(table, 'finished', { why: ending, at: this.elapsed(table) }, scores);
    // Archived once the finished row is committed (a restart archives a finished row it finds unarchived).
    this.dirty.set(table.id, { game: () => saved, archive: true });
    this.track(this.durable());
  }

  /** Marks the table's progress for the next commit, which is started (or joined) at once. */
  private save(table: Table): void {
    this.dirty.set(table.id, { game: () => this.saved(table, table.state, null, null), archive: false });
    this.track(this.durable());
  }

  /**
   * Resolves once every change made so far is committed. Changes are gathered while a commit is
   * written and go together into the next one (group commit): however many games run, the lobby
   * has at most one write at the database and one waiting, and a move waits at most for the commit
   * under way and its own. The gathering commit begins after the current task, so that every change
   * a request makes (a move, then the end it brings) is in it.
   */
  private durable(): Promise<void> {
    if (this.gathering !== null) return this.gathering;
    const before = this.writing ?? Promise.resolve();
    const commit: Promise<void> = before
      .catch(() => undefined)
      .then(() => {
        this.gathering = null;
        this.writing = commit;
        return this.writeDirty();
      });
    this.gathering = commit;
    void commit
      .catch(() => undefined)
      .then(() => {
        if (this.writing === commit) this.writing = null;
      });
    return commit;
  }

  /** One commit of every changed game; on failure they stay changed and are tried again shortly. */
  private async writeDirty(): Promise<void> {
    const saves = [...this.dirty.entries()];
    this.dirty.clear();
    if (saves.length === 0) return;
    const games = saves.map(([, save]) => save.game());
    let written: ReadonlySet<number>;
    try {
      written = new Set(await this.store.saveGames(games));
    } catch (error) {
      for (const [id, save] of saves) if (!this.dirty.has(id)) this.dirty.set(id, save);
      this.retryRound ??= this.clock.schedule(SAVE_RETRY_MS, () => {
        this.retryRound = null;
        this.track(this.durable());
      });
      throw error;
    }
    if (written.size < games.length) {
      // Another node ended these games, having taken this one for dead (its heartbeat came too
      // late): nothing here is the truth any more; the players find it when they log in again.
      this.log(`games ${games.filter((game) => !written.has(game.id)).map((game) => game.id).join(', ')} were ended by another node: every connection is closed`);
      this.abandon();
      return;
    }
    saves.forEach(([, save], i) => {
      if (save.archive) this.track(this.store.archive(games[i]));
    });
  }

  /** Runs `deliver` once the changes made so far are committed, or their commit failed. */
  private afterCommit(deliver: () => void): void {
    void this.durable().then(deliver, deliver);
  }

  /** The 200 answer to a request that changes a game, sent once the change is committed (402 if the commit fails). */
  private acknowledge(session: Session): Promise<void> {
    return this.durable().then(
      () => session.client.send(formatAnswer(200)),
      // The failure itself is logged by whoever tracked the commit.
      () => session.client.send(formatAnswer(402, 'internal_error')),
    );
  }

  private saved(table: Table, state: SavedGame['state'], end: { why: EndReason; at: number } | null, scores: number[] | null): SavedGame {
    const { options } = table;
    const transcript =
      table.engine === null
        ? null
        : writeTranscript({
            game: table.id,
            started: table.started,
            width: options.width,
            height: options.height,
            seconds: options.seconds,
            extraMove: options.extraMove,
            centralStart: true,
            players: table.seats,
            events: table.events,
            end,
            scores,
          });
    return { id: table.id, state, options, players: [...table.seats], transcript };
  }

  /** Keeps a store call until it settles; its failure is logged, never thrown at a player. */
  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.log('saving a Dots game failed', error));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }

  /**
   * GSC and the 204 state to every player still at the table, once the change is committed (so no
   * player sees a state a crash could take back); `scores` overrides the engine's (the last player's gain).
   */
  private push(table: Table, scores: readonly number[] | null): void {
    const text = this.stateAnswers(table, scores);
    const logins = table.seats.filter((login) => !table.gone.has(login));
    this.afterCommit(() => {
      for (const login of logins) this.byLogin.get(login)?.client.send(text);
    });
  }

  private stateAnswers(table: Table, scores: readonly number[] | null = null): string {
    return formatAnswer('GSC') + formatAnswer(204, undefined, stateLines(table.engine!, table.seats, scores ?? table.engine!.scores));
  }
}

/**
 * The 204 body: ACU whose move, AUF who still places dots, SCR the captures, then a GAL row per
 * field row (y from 0), one digit per point: 0 empty, 1-4 a dot of that player, 5-8 a captured dot
 * of player digit-4, 9 an empty point in a surround.
 */
export function stateLines(engine: DotsGame, logins: readonly string[], scores: readonly number[]): string[] {
  const { width, height } = engine.field;
  const codes = engine.pointCodes();
  const lines = [`ACU ${logins[engine.toMove]}`, `AUF ${logins.map((_, seat) => (engine.isStopped(seat) ? 0 : 1)).join(' ')}`, `SCR ${scores.join(' ')}`];
  for (let row = 0; row < height; row++) lines.push(`GAL ${codes.slice(row * width, (row + 1) * width).join('')}`);
  return lines;
}
