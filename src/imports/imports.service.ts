import { Inject, Injectable } from '@nestjs/common';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { gathered, sendGenerated } from '../http/generated-text.js';
import type { GameId } from '../http/game-id.pipe.js';
import type { ImportDto, ImportQuery, ImportResultDto } from './dto/import.dto.js';
import { spoolChunks, spoolFiles, spoolImport, spoolRoot } from './import-body.js';
import { BODY_FILE, countFiles, entryLimits, kindOfBody } from './import-entries.js';
import { ImportRunner } from './import-runner.js';
import { ImportsRepository } from './imports.repository.js';
import type { ImportView } from './imports.repository.js';

/** Results are read from the database this many entries at a time. */
const RESULTS_PAGE = 1000;

/** Bulk imports as the API sees them: taken in, counted, handed to the runner; progress and results. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly imports: ImportsRepository,
    private readonly runner: ImportRunner,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /**
   * Spools the body, finds what it is and counts its files (refusing a zip or tar past the import
   * limits with 422 before anything is stored), then answers 202 while the runner stores the files.
   */
  async create(request: Request, response: Response, query: ImportQuery, owner: string | null): Promise<ImportDto> {
    const body = await spoolImport(request, response, spoolRoot(this.config), this.config, query.filename);
    let view: ImportView;
    try {
      const kind = body.multipart ? 'multipart' : await kindOfBody(join(body.folder, BODY_FILE));
      const files = await countFiles(body.folder, kind, entryLimits(this.config));
      // On a PostgreSQL server, which several nodes may share, the body is kept in the database too, for
      // whichever node runs the import. The embedded database has one process, whose spool folder
      // (under DATA_DIR, or with memory:// as lasting as the database) is all it needs.
      const listed = this.config.DATABASE_URL === undefined ? undefined : await spoolFiles(body.folder);
      view = await this.imports.create(kind, body.filename, files, body.folder, owner, listed && { files: listed, chunks: spoolChunks(body.folder, listed) });
    } catch (error) {
      await rm(body.folder, { recursive: true, force: true });
      throw error;
    }
    this.runner.kick();
    response.status(202).location(`/imports/${view.id}`);
    return toImportDto(view);
  }

  async get(id: GameId): Promise<ImportDto> {
    return toImportDto(this.runner.progressOf(Number(id)) ?? (await this.find(id)));
  }

  /** Every finished entry as a line of NDJSON, read a page at a time after the last one sent. */
  async results(id: GameId, response: Response): Promise<void> {
    await this.find(id);
    response.status(200).setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    const imports = this.imports;
    async function* lines(): AsyncGenerator<string[]> {
      let after = -1;
      for (;;) {
        const page = await imports.entriesAfter(id, after, RESULTS_PAGE);
        yield page.map((entry) => {
          const line: ImportResultDto = { ...entry, gameIds: [...entry.gameIds], problem: entry.problem as ImportResultDto['problem'] };
          return `${JSON.stringify(line)}\n`;
        });
        if (page.length < RESULTS_PAGE) return;
        after = page[page.length - 1].position;
      }
    }
    await sendGenerated(gathered(lines()), response);
  }

  private async find(id: GameId): Promise<ImportView> {
    const view = await this.imports.findById(id);
    if (!view) throw new ProblemException(404, 'import.not_found', `there is no import ${id}`);
    return view;
  }
}

function toImportDto(view: ImportView): ImportDto {
  return {
    id: view.id,
    state: view.state,
    kind: view.kind,
    filename: view.filename,
    owner: view.owner,
    filesTotal: view.filesTotal,
    filesDone: view.filesDone,
    gamesStored: view.gamesStored,
    duplicates: view.duplicates,
    refused: view.refused,
    problem: view.problem as ImportDto['problem'],
    createdAt: view.createdAt.toISOString(),
    updatedAt: view.updatedAt.toISOString(),
  };
}
