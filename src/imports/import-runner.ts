import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { access, readdir, rm, stat } from 'node:fs/promises';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { makeProblem } from '../common/problem-details.js';
import type { ProblemDetails } from '../common/problem-details.js';
import { problemOf } from '../common/problem-details.filter.js';
import { UploadsService } from '../uploads/uploads.service.js';
import type { CheckedUpload, ReadUpload } from '../uploads/uploads.service.js';
import type { UploadDto } from '../uploads/dto/upload.dto.js';
import type { WithinUpload, WithinUploads } from '../uploads/uploads.repository.js';
import { spoolRoot, unspool } from './import-body.js';
import { entryLimits, importEntries } from './import-entries.js';
import type { ImportEntry } from './import-entries.js';
import { ImportLeaseLost, ImportsRepository } from './imports.repository.js';
import type { ImportEntryRecord, ImportOutcome, ImportView } from './imports.repository.js';

/** Wait before trying an entry again when every analysis thread is busy. */
const BUSY_WAIT_MS = 500;
/** Tries of an entry that fails for a reason of the server's (the database away…) before it is refused. */
const SERVER_FAILURE_TRIES = 3;
const SERVER_FAILURE_WAIT_MS = 2000;
/** How often a node removes the spool folders on its disk that no running import needs. */
const SWEEP_EVERY_MS = 60 * 60 * 1000;
/** A spool folder of no import is removed once nothing in it has changed for this long (its request may still be running before). */
const ORPHAN_AFTER_MS = 60 * 60 * 1000;
/** Where, under the spool root, a node copies the body of an import it took over from another's disk. */
const COPIES = 'copies';

/**
 * Works through running imports in the background, each file through the path of POST /uploads
 * (check, read, store), one file written at a time while the next one's games are read. Each
 * file's record commits with its games, so an import that stopped (a restart, a node that died)
 * goes on after its last finished file. On shutdown the file being written is finished, and no
 * other begun.
 *
 * Imports are owned through the database, so that several nodes on one PostgreSQL share them: a
 * node claims one running import at a time (nobody's, or one whose owner's heartbeat is older than
 * the lease), says every IMPORT_TAKEOVER_MS / 6 that it still works on it, and writes a file's
 * record, or the import's end, only while it still owns it (ImportsRepository.record and finish);
 * a node that finds its import taken over leaves it. Idle nodes look for imports to claim every
 * IMPORT_TAKEOVER_MS / 6, so one whose node died is taken over within 5/6 of IMPORT_TAKEOVER_MS.
 * The body is read from the receiving node's spool folder where that is on this machine, else
 * from the database, into a folder of this node's own.
 */
@Injectable()
export class ImportRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Imports');
  private loop: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  /** The import being worked on, as its last finished file left it (committed). */
  private live: ImportView | undefined;
  /** This node, as `imports.owner` names it. */
  readonly node = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  /** How old a heartbeat may be before another node may take the import over (0: at once, with the embedded database's one process). */
  private readonly leaseMs: number;
  /** How often the owner beats, and idle nodes look for imports to take over. */
  private readonly beatMs: number;
  private poller: NodeJS.Timeout | undefined;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly imports: ImportsRepository,
    private readonly uploads: UploadsService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {
    const shared = config.DATABASE_URL !== undefined;
    this.leaseMs = shared ? Math.floor((config.IMPORT_TAKEOVER_MS * 2) / 3) : 0;
    this.beatMs = Math.floor(config.IMPORT_TAKEOVER_MS / 6);
  }

  onApplicationBootstrap(): void {
    this.kick();
    // Other nodes may die with imports in hand; the embedded database has no other node.
    if (this.config.DATABASE_URL !== undefined) this.poller = setInterval(() => this.kick(), this.beatMs).unref();
    const sweep = () =>
      void this.sweep().catch((error: unknown) => this.logger.warn(`spool folders not swept: ${(error as Error).message}`));
    sweep();
    this.sweeper = setInterval(sweep, SWEEP_EVERY_MS).unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearInterval(this.poller);
    clearInterval(this.sweeper);
    await this.loop;
  }

  /**
   * Removes the spool folders on this machine that no running import needs: the receiving node's
   * folder of an import another node finished (or that this node finished, were it left), and after
   * ORPHAN_AFTER_MS without a change a folder of no import (its node died while it was spooled).
   * Copies of taken-over bodies are their runner's to remove (under `copies/`, not swept).
   */
  private async sweep(): Promise<void> {
    const root = spoolRoot(this.config);
    const names = await readdir(root).catch(() => [] as string[]);
    const folders = names.filter((name) => name !== COPIES).map((name) => join(root, name));
    if (folders.length === 0) return;
    const states = new Map((await this.imports.spoolOwners(folders)).map((owner) => [owner.spoolPath, owner.state]));
    for (const folder of folders) {
      const state = states.get(folder);
      if (state === 'running') continue;
      if (state === undefined && Date.now() - (await lastChange(folder)) < ORPHAN_AFTER_MS) continue;
      await rm(folder, { recursive: true, force: true });
      this.logger.log(`removed the spool folder ${folder} (${state === undefined ? 'of no import' : `its import is ${state}`})`);
    }
  }

  /**
   * The progress of import `id` while it is the one being worked on, as its last finished file left
   * it: answered without the database, which the file being written may hold for seconds (on the
   * embedded database, its one connection). Undefined for any other import.
   */
  progressOf(id: number): ImportView | undefined {
    return this.live?.id === id ? this.live : undefined;
  }

  /** Makes sure every running import is being worked on (a new one, or those left by a restart). */
  kick(): void {
    if (this.stopping) return;
    this.again = true;
    this.loop ??= this.work().finally(() => {
      this.loop = undefined;
    });
  }

  private async work(): Promise<void> {
    while (this.again && !this.stopping) {
      this.again = false;
      try {
        for (;;) {
          if (this.stopping) return;
          const job = await this.imports.claim(this.node, this.leaseMs);
          if (!job) break;
          await this.run(job);
        }
      } catch (error) {
        this.logger.error(`imports stopped: ${(error as Error).stack ?? String(error)}`);
        await sleep(SERVER_FAILURE_WAIT_MS);
        this.again = true;
      }
    }
  }

  private async run(job: ImportView): Promise<void> {
    this.live = job;
    const lease = new Heartbeat(job.id, this.node, this.beatMs, this.imports, this.logger);
    try {
      await this.runFiles(job, lease);
    } catch (error) {
      if (!(error instanceof ImportLeaseLost)) throw error;
      this.logger.warn(`import ${job.id} was taken over by another node; this one leaves it`);
    } finally {
      lease.stop();
      // Finished (its state written) or stopped: the database answers for it again.
      this.live = undefined;
      // Left with files to go (stopping, or a failure of the server's): any node, this one too, may go
      // on with it at once rather than once the lease has run out. A no-op once finished or taken over;
      // should the database be away, the lease runs out all the same.
      await this.imports.release(job.id, this.node).catch(() => undefined);
    }
  }

  /** Where this node reads the import's body: the receiving node's spool folder when it is on this machine, else a copy made here from the database. */
  private async bodyOf(job: ImportView): Promise<{ folder: string; copy: boolean } | undefined> {
    if (await exists(job.spoolPath)) return { folder: job.spoolPath, copy: false };
    if (job.spoolFiles === null) return undefined;
    const folder = join(spoolRoot(this.config), COPIES, randomUUID());
    const whole = await unspool(folder, job.spoolFiles, (seq) => this.imports.spoolChunk(job.id, seq));
    return whole ? { folder, copy: true } : undefined;
  }

  /** Ends the import, throwing ImportLeaseLost when it is no longer this node's; then its spool folder is removed, where it is on this machine. */
  private async finish(job: ImportView, state: 'done' | 'failed', problem: ProblemDetails | null = null): Promise<void> {
    if (!(await this.imports.finish(job.id, this.node, state, problem))) throw new ImportLeaseLost(job.id);
    await rm(job.spoolPath, { recursive: true, force: true });
  }

  private async runFiles(job: ImportView, lease: Heartbeat): Promise<void> {
    const body = await this.bodyOf(job);
    if (!body) {
      await this.finish(job, 'failed', makeProblem(500, 'internal', `the spooled body of import ${job.id} is gone (${job.spoolPath}); nothing more can be read`));
      return;
    }
    try {
      await this.runEntries(job, body.folder, lease);
    } finally {
      if (body.copy) await rm(body.folder, { recursive: true, force: true });
    }
  }

  private async runEntries(job: ImportView, folder: string, lease: Heartbeat): Promise<void> {
    const halt = () => this.stopping || lease.lost;
    const from = await this.imports.nextPosition(job.id);
    // A run that fails every time at the same entry (or takes its node down) is not taken up forever.
    const attempts = await this.imports.beginAttempt(job.id, this.node, from);
    if (attempts === 0) throw new ImportLeaseLost(job.id);
    if (attempts > this.config.IMPORT_ATTEMPTS) {
      const detail = `the import's runs failed ${attempts - 1} times in a row at its entry in position ${from}, and it is not taken up again (IMPORT_ATTEMPTS is ${this.config.IMPORT_ATTEMPTS}); the errors were logged`;
      await this.finish(job, 'failed', makeProblem(500, 'import.stuck', detail));
      return;
    }
    // A file's games are read on the analysis threads while the file before it is written on this
    // thread: its check (the only database work before its write) comes first, while no write is
    // under way. Records still follow the files' order, so a resumed import starts after the last.
    let group: Ready[] = [];
    const flush = async () => {
      const files = group;
      group = [];
      if (files.length > 0 && !halt()) await this.writeGroup(job.id, files);
    };
    try {
      for await (const entry of importEntries(folder, job.kind, entryLimits(this.config), from)) {
        // Stopping: the entries not yet written are left for the next start, which reads them again.
        if (halt()) break;
        const planned = await this.plan(job, entry);
        const reading = 'checked' in planned ? this.attempt(job.id, entry, () => this.uploads.read(planned.checked)) : undefined;
        // Read or not, a rejected reading is awaited below; nothing is left unobserved meanwhile.
        reading?.catch(() => undefined);
        // The files read before are written while this one is read: once they are a group's worth,
        // or before a record that must follow them.
        if (full(group) || 'record' in planned) await flush();
        if (halt()) break;
        if ('record' in planned) {
          await this.recordEntry(job.id, planned.record);
          continue;
        }
        const games = await reading!;
        if ('record' in games) {
          await flush();
          await this.recordEntry(job.id, games.record);
        } else group.push({ entry, checked: planned.checked, games });
      }
      await flush();
    } catch (error) {
      if (error instanceof ProblemException) {
        // The archive is at fault (a bomb, a broken stream): what was read before it is still written.
        await flush();
        await this.finish(job, 'failed', makeProblem(error.getStatus(), error.code, error.message));
        return;
      }
      // A step failed as the node stops: the run stops there, as below.
      if (!(error instanceof ImportStopped)) throw error;
    }
    if (lease.lost) throw new ImportLeaseLost(job.id);
    if (this.stopping) {
      // Stopped on purpose, not failed: a restart does not count towards IMPORT_ATTEMPTS (a run
      // that got past its first entry starts the count again anyway).
      await this.imports.giveBackAttempt(job.id, this.node, from);
      return;
    }
    await this.finish(job, 'done');
  }

  /** What becomes of a file before its games are read: its record when that is settled already (refused, kept before), else the checked file. */
  private async plan(job: ImportView, entry: ImportEntry): Promise<{ record: ImportEntryRecord } | { checked: CheckedUpload }> {
    if (!entry.file) return { record: { ...baseOf(entry), outcome: 'refused', problem: entry.problem ?? null } };
    const file = entry.file;
    const checked = await this.attempt(job.id, entry, () => this.uploads.check(file, { filename: file.filename }, job.owner));
    if ('record' in checked) return checked;
    if ('kept' in checked) return { record: keptRecord(entry, checked.kept) };
    return { checked };
  }

  /**
   * Writes files whose games are read, in one transaction with their records: a folder of
   * single-game files goes in a group at a time, at nearly a collection's pace. A file kept
   * meanwhile, or earlier in the group, is recorded in it as kept. A group the database refuses is
   * written again file by file, each with its own tries.
   */
  private async writeGroup(importId: number, files: readonly Ready[]): Promise<void> {
    if (files.length === 1) return this.write(importId, files[0]);
    let counted: ImportView | undefined;
    const within: WithinUploads = async (query, stored) => {
      const byIndex = new Map(stored.map((file) => [file.index, file]));
      const kept = await this.uploads.keptFiles(files.filter((_, index) => !byIndex.has(index)).map((file) => file.checked.sha256), query);
      const records = files.map(({ entry, checked }, index): ImportEntryRecord => {
        const file = byIndex.get(index);
        if (!file) {
          const twin = kept.get(checked.sha256)!;
          return { ...baseOf(entry), outcome: 'duplicate', uploadId: twin.id, gameIds: twin.gameIds, duplicates: twin.games };
        }
        const fresh = file.games.filter((game) => game.outcome !== 'duplicate').length;
        return {
          ...baseOf(entry),
          outcome: outcomeOf(file.games.map((game) => game.outcome)),
          uploadId: file.uploadId,
          gameIds: file.games.map((game) => game.gameId),
          gamesStored: fresh,
          duplicates: file.games.length - fresh,
        };
      });
      counted = await this.imports.recordMany(importId, this.node, records, query);
    };
    try {
      await this.uploads.storeMany(files.map(({ checked, games }) => ({ checked, read: games })), within);
    } catch (error) {
      if (error instanceof ImportLeaseLost) throw error;
      this.logger.warn(`import ${importId}: ${files.length} files written together failed (${(error as Error).message}); writing them one by one`);
      for (const file of files) await this.write(importId, file);
      return;
    }
    if (counted) this.live = counted;
  }

  /** Writes a file whose games are read; its record commits with them (or is written after, when the same file was kept meanwhile). */
  private async write(importId: number, { entry, checked, games }: Ready): Promise<void> {
    let recorded: ImportEntryRecord | undefined;
    let counted: ImportView | undefined;
    const within: WithinUpload = async (query, uploadId, stored) => {
      const fresh = stored.filter((game) => game.outcome !== 'duplicate').length;
      recorded = {
        ...baseOf(entry),
        outcome: outcomeOf(stored.map((game) => game.outcome)),
        uploadId,
        gameIds: stored.map((game) => game.gameId),
        gamesStored: fresh,
        duplicates: stored.length - fresh,
      };
      counted = await this.imports.record(importId, this.node, recorded, query);
    };
    const written = await this.attempt(importId, entry, () => {
      // What a failed try left is not what was written.
      recorded = counted = undefined;
      return this.uploads.store(checked, games, within);
    });
    if ('record' in written) await this.recordEntry(importId, written.record);
    else if (!(written.created && recorded)) await this.recordEntry(importId, keptRecord(entry, written.upload));
    else if (counted) this.live = counted;
  }

  /** Writes a file's record in a transaction of its own; the import's progress is then what it answers. */
  private async recordEntry(importId: number, record: ImportEntryRecord): Promise<void> {
    this.live = (await this.imports.record(importId, this.node, record)) ?? this.live;
  }

  /**
   * One step of storing a file, tried again while every analysis thread is busy, and up to
   * SERVER_FAILURE_TRIES times when the server fails; a refusal becomes the file's record.
   */
  private async attempt<T>(importId: number, entry: ImportEntry, step: () => Promise<T>): Promise<T | { record: ImportEntryRecord }> {
    for (let tries = 1; ; tries++) {
      try {
        return await step();
      } catch (error) {
        // Not this node's import any more: nothing of it is to be written here.
        if (error instanceof ImportLeaseLost) throw error;
        const problem = problemOf(error)?.problem;
        if (problem?.code === 'analysis.busy' && !this.stopping) {
          await sleep(BUSY_WAIT_MS);
          tries--;
          continue;
        }
        if (problem && problem.status < 500) return { record: { ...baseOf(entry), outcome: 'refused', problem } };
        // Stopping: a failure now (the analysis threads ending, say) is no verdict on the file, which the next start reads again.
        if (this.stopping) throw new ImportStopped(importId, entry);
        if (tries >= SERVER_FAILURE_TRIES) {
          this.logger.error(`import ${importId}: ${entry.path} failed: ${(error as Error).stack ?? String(error)}`);
          return { record: { ...baseOf(entry), outcome: 'refused', problem: problem ?? makeProblem(500, 'internal', 'the server failed to store this file; it has been logged') } };
        }
        await sleep(SERVER_FAILURE_WAIT_MS);
      }
    }
  }
}

/** A file's step that failed while the node stops: neither tried again nor refused, the file is left for the next start. */
class ImportStopped extends Error {
  constructor(importId: number, entry: ImportEntry) {
    super(`import ${importId}: ${entry.path} is left for the next start (the node is stopping)`);
  }
}

/** Files written in one transaction at most: as many games as one statement of the games' writer takes, … */
const GROUP_GAMES = 1000;
/** … as many files (a statement's parameter a file) … */
const GROUP_FILES = 250;
/** … and as many bytes (the embedded database's memory grows to hold the largest statement it is sent). */
const GROUP_BYTES = 4 * 1024 * 1024;

/** Whether the files read so far make a group's worth to write. */
function full(group: readonly Ready[]): boolean {
  let games = 0;
  let bytes = 0;
  for (const file of group) {
    games += file.games.games.length;
    bytes += file.checked.file.bytes.length;
  }
  return group.length >= GROUP_FILES || games >= GROUP_GAMES || bytes >= GROUP_BYTES;
}

/** A file whose games are read, waiting to be written. */
interface Ready {
  readonly entry: ImportEntry;
  readonly checked: CheckedUpload;
  readonly games: ReadUpload;
}

function baseOf(entry: ImportEntry) {
  return { position: entry.position, path: entry.path, uploadId: null, gameIds: [] as number[], problem: null, gamesStored: 0, duplicates: 0 };
}

/** The record of a file the archive kept before: a duplicate, naming the kept file and its games. */
function keptRecord(entry: ImportEntry, upload: UploadDto): ImportEntryRecord {
  const gameIds = upload.games.flatMap((game) => (game.gameId === null ? [] : [game.gameId]));
  return { ...baseOf(entry), outcome: 'duplicate', uploadId: upload.id, gameIds, duplicates: upload.games.length };
}

/** A file's outcome from its games': indexed when any new game was, else stored when any is new, else duplicate. */
function outcomeOf(games: readonly string[]): ImportOutcome {
  if (games.includes('indexed')) return 'indexed';
  if (games.includes('stored')) return 'stored';
  return 'duplicate';
}


/** When anything in the folder last changed (its own entries and its files), in ms since the epoch. */
async function lastChange(folder: string): Promise<number> {
  const times = [(await stat(folder)).mtimeMs];
  for (const name of await readdir(folder).catch(() => [] as string[])) {
    times.push(await stat(join(folder, name)).then((found) => found.mtimeMs, () => 0));
  }
  return Math.max(...times);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}


/**
 * Says every `everyMs` that this node still works on import `importId`; `lost` once the database
 * answers that it does not (another node has taken the import over, its heartbeats having come too
 * late). A heartbeat that fails (the database away) is only logged: the next one tries again.
 */
class Heartbeat {
  lost = false;
  private readonly timer: NodeJS.Timeout;
  private beating = false;

  constructor(
    private readonly importId: number,
    private readonly node: string,
    everyMs: number,
    private readonly imports: ImportsRepository,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => void this.beat(), everyMs);
  }

  private async beat(): Promise<void> {
    if (this.beating || this.lost) return;
    this.beating = true;
    try {
      if (!(await this.imports.heartbeat(this.importId, this.node))) this.lost = true;
    } catch (error) {
      this.logger.warn(`import ${this.importId}: heartbeat failed: ${(error as Error).message}`);
    } finally {
      this.beating = false;
    }
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
