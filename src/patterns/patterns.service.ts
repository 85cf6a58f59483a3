import { Inject, Injectable } from '@nestjs/common';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { ProblemException } from '../common/problem-codes.js';
import { transformName } from '../formats/families/positions.js';
import { badCursor, checkedAsParameters, checkedInCursor, encodeCursor, gameFilters, readCursor, resolveSearch, shown } from '../catalog/cursor.js';
import type { SearchFilters } from '../catalog/cursor.js';
import { toGameSummaryDto } from '../catalog/game.mapper.js';
import type { GameFilters } from '../catalog/game-view.js';
import { DOTS_MAX_SIDE, FIRST, GO_MAX_SIDE, SECOND, patternCell, readPattern } from '../formats/families/patterns.js';
import type { BoardChanges, Pattern, PatternMatch, Placement } from '../formats/families/patterns.js';
import type { PatternContinuationDto, PatternGamesPageDto } from './dto/pattern-answers.dto.js';
import { PatternSearchBody } from './dto/pattern-query.dto.js';
import type { PatternAnchor, PatternColors } from './dto/pattern-query.dto.js';
import { PatternFilter } from './pattern-filter.js';
import { AppConfig } from '../common/config.js';
import { throwIfUnwanted, withDeadline } from '../common/client-gone.js';
import { searchTimeout } from '../common/problem-codes.js';
import { PatternsRepository } from './patterns.repository.js';
import { conditionsOf, matchWithin, placedWithin, sequenceOf, spanCursor, spanFromCursor, spanOf } from './pattern-span.js';
import type { PatternSpan } from './pattern-span.js';

/** As GET /games. */
const DEFAULT_PAGE_SIZE = 20;
/** The lines read per statement when the filter takes new rows. */
const FILTER_BATCH = 5000;
/** Candidates confirmed between turns of the event loop, and per database read. */
const CONFIRM_BATCH = 2000;

/** How many searches keep their matches for their next pages, at most how many matches in all, and for how long. */
const KEPT_SEARCHES = 8;
const KEPT_MATCHES = 100_000;
const KEPT_MS = 60_000;

/** The families with patterns, and the largest board side their rules engines play. */
const SIDES: Readonly<Record<string, number>> = { go: GO_MAX_SIDE, dots: DOTS_MAX_SIDE };

/** What a pattern search asks, as its cursor carries it. */
interface Sought {
  readonly family: 'go' | 'dots';
  readonly rows: readonly string[];
  readonly anchor: PatternAnchor;
  readonly colors: PatternColors;
  /** The span of plies, side to move and numbered moves; absent for a search of every ply. */
  readonly span?: PatternSpan;
}

/** A game the pattern appears in. */
interface Found {
  readonly gameId: number;
  readonly match: PatternMatch;
  readonly placement: Placement;
  readonly boardWidth: number;
  readonly result: string | null;
  readonly played: string | null;
}

/** A search's matches kept for its next pages: when searched (performance.now()), at which version of the filter. */
interface KeptSearch {
  readonly at: number;
  readonly version: number;
  readonly found: readonly Found[];
  readonly continuations: PatternContinuationDto[];
}

/**
 * Pattern search (docs/patterns.md): the games in which a shape appears, at its first ply, and what
 * was played next around it. Candidates come from the in-memory filter ({@link PatternFilter});
 * each is confirmed by following its line (`game_patterns.changes`) with the placements the filter
 * let through for it.
 */
@Injectable()
export class PatternsService {
  readonly filter = new PatternFilter();
  private refreshing: Promise<void> | null = null;
  /**
   * The last searches' matches, newest last, for their next pages: by what was sought and the
   * filters, while the filter has taken no new row since (no game written or re-indexed) and for
   * at most {@link KEPT_MS}; a game deleted meanwhile is left out of the page, as ever.
   */
  private readonly kept = new Map<string, KeptSearch>();

  constructor(
    private readonly patterns: PatternsRepository,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async games(body: PatternSearchBody): Promise<PatternGamesPageDto> {
    const cursor = body.cursor === undefined ? undefined : decodePatternCursor(body.cursor);
    const sought = cursor?.sought ?? soughtOf(body);
    const pattern = patternOf(sought.rows);
    sequenceOf(pattern, sought.span);
    const limit = body.limit ?? DEFAULT_PAGE_SIZE;
    const { filters, after } = resolveSearch({ ...searchFilters(body), family: sought.family, cursor: cursor?.games }, PatternSearchBody);
    const repositoryFilters = gameFilters(filters);
    const fit = () => fits(pattern, sought.family, repositoryFilters.boardWidth, repositoryFilters.boardHeight);
    // A cursor's pattern fitted its board size when it was written: one that does not is forged.
    if (cursor === undefined) fit();
    else checkedInCursor(fit);

    await this.refresh();
    const key = JSON.stringify([sought, Object.entries(filters).filter(([, value]) => value !== undefined).sort(([a], [b]) => a.localeCompare(b))]);
    let search = this.kept.get(key);
    if (!search || search.version !== this.filter.version || performance.now() - search.at > KEPT_MS) {
      const found = await withDeadline(this.config.SEARCH_TIMEOUT_MS, () => searchTimeout(this.config.SEARCH_TIMEOUT_MS), () => this.search(pattern, sought, repositoryFilters));
      search = { at: performance.now(), version: this.filter.version, found, continuations: continuations(pattern, found) };
      this.keep(key, search);
    }
    const { found } = search;
    const rest = after === undefined ? found : found.filter((hit) => hit.gameId < after.id);
    const page = rest.slice(0, limit);
    const views = new Map((await this.patterns.summaries(page.map((hit) => hit.gameId))).map((view) => [view.id, view]));
    const items = page.flatMap((hit) => {
      const view = views.get(hit.gameId);
      if (!view) return []; // deleted meanwhile
      const { placement } = hit;
      return [
        {
          ...toGameSummaryDto(view),
          ply: hit.match.ply,
          where: { transform: transformName(placement.transform), left: placement.left, top: placement.top, width: placement.width, height: placement.height, colorsSwapped: placement.swapped },
        },
      ];
    });
    const last = page[page.length - 1];
    return {
      items,
      next: rest.length > limit ? encodePatternCursor(sought, encodeCursor(filters, { id: last.gameId })) : null,
      total: found.length,
      continuations: search.continuations,
    };
  }

  /**
   * Every game of the archive the pattern appears in (that passes the filters), newest first. The
   * candidates the filter keeps whole (line, result, day played) are confirmed in memory, and only
   * those found are read from the table, to see that they are still there and pass the filters (a
   * batch read while the next is confirmed); the others are read with their lines.
   */
  private async search(pattern: Pattern, sought: Sought, repositoryFilters: GameFilters): Promise<Found[]> {
    const found: Found[] = [];
    const sequence = sequenceOf(pattern, sought.span);
    const conditions = conditionsOf(sought.span);
    // The family and the board size are the group's: what the table is asked besides is the rest.
    const { family: _family, boardWidth: _width, boardHeight: _height, ...tableFilters } = repositoryFilters;
    for (const group of this.filter.groupsOf(sought.family)) {
      if (repositoryFilters.boardWidth !== undefined && (group.width !== repositoryFilters.boardWidth || group.height !== repositoryFilters.boardHeight)) continue;
      const placed = placedWithin(pattern, sequence, group.width, group.height, sought.anchor, sought.colors === 'any', conditions);
      if (placed.length === 0) continue;
      const candidates = await this.filter.candidates(group, placed, conditions ?? undefined);
      const confirm = (board: BoardChanges & { readonly gameId: number; readonly result: string | null; readonly played: string | null }): Found | null => {
        const mine = candidates.get(board.gameId)!.map((index) => placed[index]);
        const match = matchWithin(board, mine, conditions);
        return match ? { gameId: board.gameId, match, placement: mine[match.placement], boardWidth: board.width, result: board.result, played: board.played } : null;
      };
      // In id order, so that each read's rows lie close together in the tables (ids follow the order games were written).
      const ids = Float64Array.from(candidates.keys()).sort();
      const unknown: number[] = [];
      let checking: Promise<void> | null = null;
      for (let start = 0; start < ids.length; start += CONFIRM_BATCH) {
        const matched = new Map<number, Found>();
        for (const id of ids.subarray(start, start + CONFIRM_BATCH)) {
          const kept = this.filter.kept(id);
          if (!kept) {
            unknown.push(id);
            continue;
          }
          const hit = confirm({ gameId: id, width: group.width, height: group.height, ...kept });
          if (hit) matched.set(id, hit);
        }
        await checking;
        checking =
          matched.size === 0
            ? null
            : this.patterns.passing([...matched.keys()], tableFilters).then((ids) => {
                for (const id of ids) found.push(matched.get(id)!);
              });
        // Awaited after the next batch (or below), where a failure is thrown: not left unhandled meanwhile.
        checking?.catch(() => undefined);
        await yieldToLoop();
        throwIfUnwanted();
      }
      await checking;
      for (let start = 0; start < unknown.length; start += CONFIRM_BATCH) {
        for (const board of await this.patterns.boards(unknown.slice(start, start + CONFIRM_BATCH), tableFilters)) {
          const hit = confirm(board);
          if (hit) found.push(hit);
        }
        await yieldToLoop();
        throwIfUnwanted();
      }
    }
    found.sort((a, b) => b.gameId - a.gameId);
    return found;
  }

  /** Keeps a search's matches, letting go of the oldest searches beyond {@link KEPT_SEARCHES} or {@link KEPT_MATCHES}. */
  private keep(key: string, search: KeptSearch): void {
    this.kept.delete(key);
    this.kept.set(key, search);
    let matches = 0;
    for (const kept of this.kept.values()) matches += kept.found.length;
    for (const [oldest, kept] of this.kept) {
      if (this.kept.size <= 1 || (this.kept.size <= KEPT_SEARCHES && matches <= KEPT_MATCHES)) break;
      this.kept.delete(oldest);
      matches -= kept.found.length;
    }
  }

  /** Brings the filter up to date with `game_patterns` (one read at a time; callers meanwhile wait for it). */
  async refresh(): Promise<void> {
    if (!this.refreshing) {
      this.refreshing = (async () => {
        try {
          const { rows, watermark } = await this.patterns.filterRows(this.filter.watermark);
          this.filter.reserve(rows);
          // The lines' changes, a batch at a time (the filter keeps only when each point was first taken).
          for (let start = 0; start < rows.length; start += FILTER_BATCH) {
            const batch = rows.slice(start, start + FILTER_BATCH);
            const lines = await this.patterns.changesOf(batch.map((row) => row.gameId));
            this.filter.take(batch, new Map(lines.map((line) => [line.gameId, line])));
          }
          this.filter.watermark = watermark;
        } finally {
          this.refreshing = null;
        }
      })();
    }
    return this.refreshing;
  }
}

/** The moves played next, per point of the pattern's frame and colour, as the explorer counts them. */
function continuations(pattern: Pattern, found: readonly Found[]): PatternContinuationDto[] {
  const moves = new Map<string, PatternContinuationDto>();
  for (const hit of found) {
    const next = hit.match.next;
    if (!next || (next.state !== FIRST && next.state !== SECOND)) continue;
    const [x, y] = patternCell(pattern, hit.placement, next.point, hit.boardWidth);
    const color = (next.state === FIRST) !== hit.placement.swapped ? 'X' : 'O';
    const key = `${x},${y},${color}`;
    let move = moves.get(key);
    if (!move) {
      move = { x, y, color, games: 0, results: {}, lastPlayed: null, game: hit.gameId };
      moves.set(key, move);
    }
    move.games++;
    move.game = Math.max(move.game, hit.gameId);
    const result = hit.result ?? 'unknown';
    move.results[result] = (move.results[result] ?? 0) + 1;
    if (hit.played !== null && (move.lastPlayed === null || hit.played > move.lastPlayed)) move.lastPlayed = hit.played;
  }
  return [...moves.values()].sort((a, b) => b.games - a.games || a.y - b.y || a.x - b.x || a.color.localeCompare(b.color));
}

function soughtOf(body: PatternSearchBody): Sought {
  if (body.family === undefined || body.pattern === undefined) {
    throw new ProblemException(400, 'request.invalid', 'name the `family` and the `pattern` (or continue a search with its `cursor`)');
  }
  if (body.family !== 'go' && body.family !== 'dots') {
    throw new ProblemException(400, 'pattern.family', `the ${body.family} family has no patterns: pattern search is for go and dots`);
  }
  const span = spanOf(body);
  return { family: body.family, rows: body.pattern, anchor: body.anchor ?? 'anywhere', colors: body.colors ?? 'same', ...(span ? { span } : {}) };
}

/** The pattern of the rows, or 400 saying what is wrong with them. */
function patternOf(rows: readonly string[]): Pattern {
  const read = readPattern(rows);
  if ('cells' in read) return read;
  switch (read.reason) {
    case 'empty':
      throw new ProblemException(400, 'pattern.invalid', 'the pattern has no cells: give rows of `X`, `O`, `.` and `*`');
    case 'unequal_rows':
      throw new ProblemException(400, 'pattern.invalid', `row ${read.row! + 1} of the pattern is ${rows[read.row!].length} cells long, row 1 ${rows[0].length}: rows must be of equal length`);
    case 'character':
      throw new ProblemException(400, 'pattern.invalid', `row ${read.row! + 1}, column ${read.column! + 1} of the pattern is ${JSON.stringify(rows[read.row!][read.column!])}: a cell is X, O, . or *`);
    case 'no_stones':
      throw new ProblemException(400, 'pattern.no_stones', 'the pattern has no X and no O: it would be on every board');
  }
}

/** 400 `pattern.too_large` for a pattern no board of the family (or of the `boardSize` filter) holds in any orientation. */
function fits(pattern: Pattern, family: string, width: number | undefined, height: number | undefined): void {
  const [w, h] = width === undefined ? [SIDES[family], SIDES[family]] : [width, height ?? width];
  // A rectangle's symmetries keep its axes, and a square's turn the pattern onto another square: it fits as written or not at all.
  if (pattern.width > w || pattern.height > h) {
    const board = width === undefined ? `the largest ${family} board (${w}x${h})` : `a ${w}x${h} board`;
    throw new ProblemException(400, 'pattern.too_large', `the pattern is ${pattern.width}x${pattern.height}, larger than ${board}`);
  }
}

/** The filters of GET /games a pattern search carries. */
function searchFilters(body: PatternSearchBody): SearchFilters {
  const { limit: _limit, cursor: _cursor, pattern: _pattern, anchor: _anchor, colors: _colors, family: _family, ...filters } = body;
  return filters as SearchFilters;
}

/** A cursor of a pattern search: what it seeks, and the cursor of GET /games for the filters and where the page ended. */
function encodePatternCursor(sought: Sought, games: string): string {
  return Buffer.from(JSON.stringify({ v: 1, p: { f: sought.family, r: sought.rows, a: sought.anchor, c: sought.colors, ...spanCursor(sought.span) }, c: games })).toString('base64url');
}

/**
 * A pattern search's cursor, checked whole (400 `request.bad_cursor` saying what is wrong): what it
 * seeks as the body's `family`, `pattern`, `anchor` and `colors` are checked; its games cursor is checked by resolveSearch.
 */
function decodePatternCursor(cursor: string): { sought: Sought; games: string } {
  const { p, c } = readCursor(cursor, ['p', 'c']);
  if (typeof c !== 'string') throw badCursor(`its games cursor ("c") is ${shown(c)}, not text`);
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw badCursor(`its pattern search ("p") is ${shown(p)}, not a JSON object`);
  const { f, r, a, c: colors, s, ...rest } = p as Record<string, unknown>;
  if (Object.keys(rest).length > 0) throw badCursor(`its pattern search holds ${shown(Object.keys(rest)[0])}, which no pattern search has`);
  // A cursor always writes the anchor and the colours; each value is checked as the body's parameter is.
  if (a === undefined || a === null || colors === undefined || colors === null) throw badCursor('its pattern search has no anchor ("a") or no colours ("c")');
  const asked = checkedAsParameters(PatternSearchBody, { family: f, pattern: r, anchor: a, colors }, 'its pattern search');
  const span = spanFromCursor(s);
  const sought = { ...checkedInCursor(() => soughtOf(asked)), ...(span ? { span } : {}) };
  checkedInCursor(() => sequenceOf(patternOf(sought.rows), span));
  return { sought, games: c };
}
