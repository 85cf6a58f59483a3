import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { access, rm } from 'node:fs/promises';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { makeProblem } from '../common/problem-details.js';
import type { ProblemDetails } from '../common/problem-details.js';
import { FormatError } from '../formats/errors.js';
import { UploadsService } from '../uploads/uploads.service.js';
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
 * Works through running imports in the background, one file at a time, each through the path of
 * POST /uploads. Each file's record commits with its games, so after a restart (imports still
 * `running` are resumed at boot) an import goes on after its last finished file. On shutdown the
 * file in hand is finished, and no other begun.
 */
@Injectable()
export class ImportRunner implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Imports');
  private loop: Promise<void> | undefined;
  private again = false;
  private stopping = false;

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
    if (!(await exists(job.spoolPath))) {
      await this.imports.finish(job.id, 'failed', makeProblem(500, 'internal', `the spooled body of import ${job.id} is gone (${job.spoolPath}); nothing more can be read`));
      return;
    }
    const from = await this.imports.nextPosition(job.id);
    try {
      for await (const entry of importEntries(job.spoolPath, job.kind, entryLimits(this.config), from)) {
        // Stopping: this entry is left for the next start, which reads it again.
        if (this.stopping) return;
        const left = await this.settle(job.id, entry);
        if (left) await this.imports.record(job.id, left);
      }
    } catch (error) {
      if (!(error instanceof ProblemException)) throw error;
      await this.imports.finish(job.id, 'failed', makeProblem(error.getStatus(), error.code, error.message));
      await rm(job.spoolPath, { recursive: true, force: true });
      return;
    }
    if (this.stopping) return;
    await this.imports.finish(job.id, 'done');
    await rm(job.spoolPath, { recursive: true, force: true });
  }

  /**
   * Stores one file. When it brings new games, its record is written inside their transaction (and
   * undefined is returned); otherwise the record to write.
   */
  private async settle(importId: number, entry: ImportEntry): Promise<ImportEntryRecord | undefined> {
    const base = { position: entry.position, path: entry.path, uploadId: null, gameIds: [], problem: null, gamesStored: 0, duplicates: 0 };
    if (!entry.file) return { ...base, outcome: 'refused', problem: entry.problem ?? null };
    let recorded: ImportEntryRecord | undefined;
    const within: WithinUpload = async (query, uploadId, games) => {
      const stored = games.filter((game) => game.outcome !== 'duplicate').length;
      recorded = {
        ...base,
        outcome: outcomeOf(games.map((game) => game.outcome)),
        uploadId,
        gameIds: games.map((game) => game.gameId),
        gamesStored: stored,
        duplicates: games.length - stored,
      };
      await this.imports.record(importId, recorded, query);
    };
    for (let tries = 1; ; tries++) {
      try {
        const { upload, created } = await this.uploads.upload(entry.file, { filename: entry.file.filename }, within);
        if (created && recorded) return undefined;
        const gameIds = upload.games.flatMap((game) => (game.gameId === null ? [] : [game.gameId]));
        return { ...base, outcome: 'duplicate', uploadId: upload.id, gameIds, duplicates: upload.games.length };
      } catch (error) {
        const problem = problemOf(error);
        if (problem?.code === 'analysis.busy' && !this.stopping) {
          await sleep(BUSY_WAIT_MS);
          tries--;
          continue;
        }
        if (problem && problem.status < 500) return { ...base, outcome: 'refused', problem };
        if (tries >= SERVER_FAILURE_TRIES || this.stopping) {
          this.logger.error(`import ${importId}: ${entry.path} failed: ${(error as Error).stack ?? String(error)}`);
          return { ...base, outcome: 'refused', problem: problem ?? makeProblem(500, 'internal', 'the server failed to store this file; it has been logged') };
        }
        await sleep(SERVER_FAILURE_WAIT_MS);
      }
    }
  }
}

/** A file's outcome from its games': indexed when any new game was, else stored when any is new, else duplicate. */
function outcomeOf(games: readonly string[]): ImportOutcome {
  if (games.includes('indexed')) return 'indexed';
  if (games.includes('stored')) return 'stored';
  return 'duplicate';
}

function problemOf(error: unknown): ProblemDetails | undefined {
  if (error instanceof FormatError) return makeProblem(error.status, error.code, error.message, error.issues);
  if (error instanceof ProblemException) return makeProblem(error.getStatus(), error.code, error.message);
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
