import { setTimeout as sleep } from 'node:timers/promises';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { access, rm } from 'node:fs/promises';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { makeProblem } from '../common/problem-details.js';
import { problemOf } from '../common/problem-details.filter.js';
import { UploadsService } from '../uploads/uploads.service.js';
import type { CheckedUpload, ReadUpload } from '../uploads/uploads.service.js';
import type { UploadDto } from '../uploads/dto/upload.dto.js';
import type { WithinUpload } from '../uploads/uploads.repository.js';
import { entryLimits, importEntries } from './import-entries.js';
import type { ImportEntry } from './import-entries.js';
import { ImportsRepository } from './imports.repository.js';
import type { ImportEntryRecord, ImportOutcome, ImportView } from './imports.repository.js';

/** Wait before trying an entry again when every analysis thread is busy. */
const BUSY_WAIT_MS = 500;
/** Tries of an entry that fails for a reason of the server's (the database away…) before it is refused. */
const SERVER_FAILURE_TRIES = 3;
const SERVER_FAILURE_WAIT_MS = 2000;

/**
 * Works through running imports in the background, each file through the path of POST /uploads
 * (check, read, store), one file written at a time while the next one's games are read. Each
 * file's record commits with its games, so after a restart (imports still `running` are resumed at
 * boot) an import goes on after its last finished file. On shutdown the file being written is
 * finished, and no other begun.
 */
@Injectable()
export class ImportRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Imports');
  private loop: Promise<void> | undefined;
  private again = false;
  private stopping = false;
  /** The import being worked on, as its last finished file left it (committed). */
  private live: ImportView | undefined;

  constructor(
    private readonly imports: ImportsRepository,
    private readonly uploads: UploadsService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.kick();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    await this.loop;
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
        for (const running of await this.imports.running()) {
          if (this.stopping) return;
          await this.run(running);
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
    try {
      await this.runFiles(job);
    } finally {
      // Finished (its state written) or stopped: the database answers for it again.
      this.live = undefined;
    }
  }

  private async runFiles(job: ImportView): Promise<void> {
    if (!(await exists(job.spoolPath))) {
      await this.imports.finish(job.id, 'failed', makeProblem(500, 'internal', `the spooled body of import ${job.id} is gone (${job.spoolPath}); nothing more can be read`));
      return;
    }
    const from = await this.imports.nextPosition(job.id);
    // A file's games are read on the analysis threads while the file before it is written on this
    // thread: its check (the only database work before its write) comes first, while no write is
    // under way. Records still follow the files' order, so a resumed import starts after the last.
    let ready: Ready | undefined;
    try {
      for await (const entry of importEntries(job.spoolPath, job.kind, entryLimits(this.config), from)) {
        // Stopping: the entries not yet written are left for the next start, which reads them again.
        if (this.stopping) return;
        const planned = await this.plan(job.id, entry);
        const reading = 'checked' in planned ? this.attempt(job.id, entry, () => this.uploads.read(planned.checked)) : undefined;
        // Read or not, a rejected reading is awaited below; nothing is left unobserved meanwhile.
        reading?.catch(() => undefined);
        if (ready) await this.write(job.id, ready);
        ready = undefined;
        if (this.stopping) return;
        if ('record' in planned) {
          await this.recordEntry(job.id, planned.record);
          continue;
        }
        const games = await reading!;
        if ('record' in games) await this.recordEntry(job.id, games.record);
        else ready = { entry, checked: planned.checked, games };
      }
      if (ready && !this.stopping) await this.write(job.id, ready);
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      // The archive is at fault (a bomb, a broken stream): what was read before it is still written.
      if (ready && !this.stopping) await this.write(job.id, ready);
      await this.imports.finish(job.id, 'failed', makeProblem(error.getStatus(), error.code, error.message));
      await rm(job.spoolPath, { recursive: true, force: true });
      return;
    }
    if (this.stopping) return;
    await this.imports.finish(job.id, 'done');
    await rm(job.spoolPath, { recursive: true, force: true });
  }

  /** What becomes of a file before its games are read: its record when that is settled already (refused, kept before), else the checked file. */
  private async plan(importId: number, entry: ImportEntry): Promise<{ record: ImportEntryRecord } | { checked: CheckedUpload }> {
    if (!entry.file) return { record: { ...baseOf(entry), outcome: 'refused', problem: entry.problem ?? null } };
    const file = entry.file;
    const checked = await this.attempt(importId, entry, () => this.uploads.check(file, { filename: file.filename }));
    if ('record' in checked) return checked;
    if ('kept' in checked) return { record: keptRecord(entry, checked.kept) };
    return { checked };
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
      counted = await this.imports.record(importId, recorded, query);
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
    this.live = (await this.imports.record(importId, record)) ?? this.live;
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
        const problem = problemOf(error)?.problem;
        if (problem?.code === 'analysis.busy' && !this.stopping) {
          await sleep(BUSY_WAIT_MS);
          tries--;
          continue;
        }
        if (problem && problem.status < 500) return { record: { ...baseOf(entry), outcome: 'refused', problem } };
        if (tries >= SERVER_FAILURE_TRIES || this.stopping) {
          this.logger.error(`import ${importId}: ${entry.path} failed: ${(error as Error).stack ?? String(error)}`);
          return { record: { ...baseOf(entry), outcome: 'refused', problem: problem ?? makeProblem(500, 'internal', 'the server failed to store this file; it has been logged') } };
        }
        await sleep(SERVER_FAILURE_WAIT_MS);
      }
    }
  }
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


async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

