import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AppConfig } from '../common/config.js';
import { throwIfUnwanted, withDeadline } from '../common/client-gone.js';
import { ProblemException, searchTimeout } from '../common/problem-codes.js';
import { badCursor, checkedInCursor, encodeCursor, gameFilters, readCursor, resolveSearch, shown } from '../catalog/cursor.js';
import type { SearchFilters } from '../catalog/cursor.js';
import { toGameSummaryDto } from '../catalog/game.mapper.js';
import type { GameFilters } from '../catalog/game-view.js';
import type { PatternGamesPageDto } from './dto/pattern-answers.dto.js';
import { PatternSearchBody } from './dto/pattern-query.dto.js';
import { compileMaterial, compilePattern, firstMatchingPly } from './draughts-search.js';
import type { DraughtsQuery, MaterialBounds } from './draughts-search.js';
import { DraughtsRepository } from './draughts.repository.js';
import { DraughtsLines, mayMatch } from './draughts-lines.js';
import { PatternsRepository } from './patterns.repository.js';

/** As GET /games. */
const DEFAULT_PAGE_SIZE = 20;
/** Games scanned between turns of the event loop. */
const SCAN_BATCH = 5000;
/** Rows read per statement when the memory takes new rows. */
const READ_BATCH = 5000;
/** Games checked against the filters per statement. */
const CONFIRM_BATCH = 5000;

/** What a draughts search asks, as its cursor carries it. */
interface Sought {
  readonly rows: readonly string[] | null;
  readonly material: MaterialBounds | null;
  readonly plyFrom: number;
  readonly plyTo: number | null;
}

/** The fields of a pattern search's body this search reads (beside the filters of GET /games). */
interface DraughtsBody {
  readonly family?: string;
  readonly pattern?: string[];
  readonly material?: unknown;
  readonly plyFrom?: unknown;
  readonly plyTo?: unknown;
  readonly limit?: number;
  readonly cursor?: string;
}

/** Whether a pattern search's cursor is a draughts search's (one that is not base64url JSON is left to the pattern search to refuse). */
export function isDraughtsCursor(cursor: string | undefined): boolean {
  if (cursor === undefined || !/^[A-Za-z0-9_-]+={0,2}$/.test(cursor)) return false;
  try {
    const decoded: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return typeof decoded === 'object' && decoded !== null && 'd' in decoded;
  } catch {
    return false;
  }
}

/**
 * Draughts search by squares and material (docs/patterns.md): `POST /patterns/games` with family
 * `checkers`. Scans the positions of every game, kept in memory ({@link DraughtsLines}), skipping a
 * game whose squares never held what the query wants; each is answered with the first ply whose
 * masks match. The filters of GET /games are then asked of the table for the games found.
 */
@Injectable()
export class DraughtsSearchService {
  /** The positions of every draughts game, in memory. */
  readonly memory = new DraughtsLines();
  private refreshing: Promise<void> | null = null;

  constructor(
    private readonly draughts: DraughtsRepository,
    private readonly patterns: PatternsRepository,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async games(body: PatternSearchBody): Promise<PatternGamesPageDto> {
    const asked = body as PatternSearchBody & DraughtsBody;
    const cursor = asked.cursor === undefined ? undefined : decodeDraughtsCursor(asked.cursor);
    const sought = cursor?.sought ?? soughtOf(asked);
    const query = queryOf(sought);
    const limit = asked.limit ?? DEFAULT_PAGE_SIZE;
    const { filters, after } = resolveSearch({ ...(body as SearchFilters), family: 'checkers', cursor: cursor?.games }, PatternSearchBody);
    const found = await withDeadline(this.config.SEARCH_TIMEOUT_MS, () => searchTimeout(this.config.SEARCH_TIMEOUT_MS), () => this.search(query, gameFilters(filters)));
    const rest = after === undefined ? found : found.filter((hit) => hit.gameId < after.id);
    const page = rest.slice(0, limit);
    const views = new Map((await this.patterns.summaries(page.map((hit) => hit.gameId))).map((view) => [view.id, view]));
    const items = page.flatMap((hit) => {
      const view = views.get(hit.gameId);
      if (!view) return []; // deleted meanwhile
      // The pattern is the whole board, as it stands: no symmetry, no colours exchanged.
      return [{ ...toGameSummaryDto(view), ply: hit.ply, where: { transform: 'identity' as const, left: 0, top: 0, width: 8, height: 8, colorsSwapped: false } }];
    });
    const last = page[page.length - 1];
    return {
      items,
      next: rest.length > limit ? encodeDraughtsCursor(sought, encodeCursor(filters, { id: last.gameId })) : null,
      total: found.length,
      continuations: [],
    };
  }

  /** Every game (that passes the filters) the query matches, newest first, at its first matching ply. */
  private async search(query: DraughtsQuery, filters: GameFilters): Promise<{ gameId: number; ply: number }[]> {
    await this.refresh();
    const found: { gameId: number; ply: number; written: string }[] = [];
    let scanned = 0;
    for (const [gameId, line] of this.memory.lines) {
      if (mayMatch(query, line.ever)) {
        const ply = firstMatchingPly(query, line.plies);
        if (ply >= 0) found.push({ gameId, ply, written: line.written });
      }
      if (++scanned % SCAN_BATCH === 0) {
        await yieldToLoop();
        throwIfUnwanted();
      }
    }
    found.sort((a, b) => b.gameId - a.gameId);
    // Every game kept is stored (refresh let go of the others) and of the family: only other filters need the table.
    const narrowing = Object.entries(filters).some(([key, value]) => value !== undefined && key !== 'family' && !(key === 'unique' && value === false));
    if (!narrowing) return found;
    const kept: { gameId: number; ply: number }[] = [];
    for (let start = 0; start < found.length; start += CONFIRM_BATCH) {
      const batch = found.slice(start, start + CONFIRM_BATCH);
      const passing = new Map((await this.draughts.passing(batch.map((hit) => hit.gameId), filters)).map((row) => [row.gameId, row.written]));
      // A game written again since the memory's read is matched on its row as it stands.
      const again = batch.filter((hit) => passing.has(hit.gameId) && passing.get(hit.gameId) !== hit.written).map((hit) => hit.gameId);
      const fresh = new Map(again.length === 0 ? [] : (await this.draughts.rowsOf(again)).map((row) => [row.gameId, row.plies]));
      for (const hit of batch) {
        if (!passing.has(hit.gameId)) continue;
        const plies = fresh.get(hit.gameId);
        const ply = plies ? firstMatchingPly(query, plies) : hit.ply;
        if (ply >= 0) kept.push({ gameId: hit.gameId, ply });
      }
      await yieldToLoop();
      throwIfUnwanted();
    }
    return kept;
  }

  /** Brings the memory up to date with `game_draughts` (one read at a time; callers meanwhile wait for it). */
  async refresh(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = (async () => {
        try {
          const watermark = await this.draughts.snapshotXmin();
          for (let after = 0; ; ) {
            const rows = await this.draughts.rowsSince(this.memory.watermark, after, READ_BATCH);
            this.memory.take(rows);
            if (rows.length < READ_BATCH) break;
            after = rows[rows.length - 1].gameId;
          }
          if ((await this.draughts.count()) !== this.memory.lines.size) this.memory.keepOnly(new Set(await this.draughts.gameIds()));
          this.memory.watermark = watermark;
        } finally {
          this.refreshing = null;
        }
      })();
    }
    return this.refreshing;
  }
}

/** A ply bound of the body: a whole number from 0, or absent. */
function plyBound(value: unknown, name: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 100_000) {
    throw new ProblemException(400, 'request.invalid', `${name} is ${shown(value)}: a ply is a whole number from 0 to 100000`);
  }
  return value;
}

function soughtOf(body: DraughtsBody): Sought {
  if (body.pattern === undefined && (body.material === undefined || body.material === null)) {
    throw new ProblemException(400, 'request.invalid', 'a draughts search names a `pattern`, a `material`, or both (or continues a search with its `cursor`)');
  }
  // The positions kept have no side to move (a game may start from a setup with either to move).
  if ((body as { toMove?: unknown }).toMove !== undefined) throw new ProblemException(400, 'request.invalid', 'a draughts search takes no `toMove`: give a span of plies instead');
  const plyFrom = plyBound(body.plyFrom, 'plyFrom') ?? 0;
  const plyTo = plyBound(body.plyTo, 'plyTo') ?? null;
  if (plyTo !== null && plyTo < plyFrom) throw new ProblemException(400, 'request.invalid', `plyFrom (${plyFrom}) is after plyTo (${plyTo})`);
  return { rows: body.pattern ?? null, material: (body.material ?? null) as MaterialBounds | null, plyFrom, plyTo };
}

/** The compiled query, or 400 saying what is wrong with the pattern or the bounds. */
function queryOf(sought: Sought): DraughtsQuery {
  const { hold, empty } = sought.rows === null ? { hold: [0, 0, 0, 0] as [number, number, number, number], empty: 0 } : compilePattern(sought.rows);
  const { fewest, most } = compileMaterial(sought.material);
  return { hold, empty, fewest, most, plyFrom: sought.plyFrom, plyTo: sought.plyTo };
}

/** A cursor of a draughts search: what it seeks, and the cursor of GET /games for the filters and where the page ended. */
function encodeDraughtsCursor(sought: Sought, games: string): string {
  return Buffer.from(JSON.stringify({ v: 1, d: { r: sought.rows, m: sought.material, f: sought.plyFrom, t: sought.plyTo }, c: games })).toString('base64url');
}

/** A draughts search's cursor, checked whole (400 `request.bad_cursor` saying what is wrong). */
function decodeDraughtsCursor(cursor: string): { sought: Sought; games: string } {
  const { d, c } = readCursor(cursor, ['d', 'c']);
  if (typeof c !== 'string') throw badCursor(`its games cursor ("c") is ${shown(c)}, not text`);
  if (typeof d !== 'object' || d === null || Array.isArray(d)) throw badCursor(`its draughts search ("d") is ${shown(d)}, not a JSON object`);
  const { r, m, f, t, ...rest } = d as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw badCursor(`its draughts search holds ${shown(Object.keys(rest)[0])}, which no draughts search has`);
  if (r !== null && (!Array.isArray(r) || r.some((row) => typeof row !== 'string'))) throw badCursor(`its pattern ("r") is ${shown(r)}, not rows of text`);
  const sought = checkedInCursor(() => soughtOf({ pattern: r === null ? undefined : (r as string[]), material: m, plyFrom: f, plyTo: t }));
  checkedInCursor(() => queryOf(sought));
  return { sought, games: c };
}
