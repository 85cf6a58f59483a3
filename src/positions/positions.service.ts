import { Inject, Injectable } from '@nestjs/common';
import { ProblemException } from '../common/problem-codes.js';
import { FormatError } from '../core/errors.js';
import { NO_MOVE, compose, groupTransforms, inverse, positionStride, transformName } from '../formats/families/positions.js';
import type { Transform } from '../formats/families/positions.js';
import { queryPosition } from '../formats/families/position-query.js';
import { readPositionMove } from '../formats/families/tracks.js';
import { FAMILIES } from '../formats/plugin.js';
import type { Family } from '../formats/plugin.js';
import { badCursor, encodeCursor, gameFilters, readCursor, resolveSearch, shown } from '../catalog/cursor.js';
import type { SearchFilters } from '../catalog/cursor.js';
import { toGameSummaryDto } from '../catalog/game.mapper.js';
import { InjectReads } from '../database/read-replicas.js';
import type { Reads } from '../database/read-replicas.js';
import type { ExplorerDto, ExplorerMoveDto, PositionGamesPageDto, PositionHistoryDto } from './dto/position-answers.dto.js';
import type { ExplorerBoardBody, ExplorerBreakdown, ExplorerGameQuery } from './dto/position-query.dto.js';
import { addYears, historyOf, levelOf } from './position-history.js';
import { PositionFiltersQuery, SYMMETRY_MODES } from './dto/position-query.dto.js';
import type { BoardPositionBody, GamePositionQuery, SymmetryMode } from './dto/position-query.dto.js';
import { bucketAt, keyTopAt } from '../indexes/positions/position-rows.js';
import { PositionsRepository } from './positions.repository.js';
import { arrivalsSource, buildTree, gameLine, writtenSetup } from './position-tree.builder.js';
import type { TreeSource } from './position-tree.builder.js';
import { TREE_MEDIA_TYPES, nodeComment, writeTree } from './position-tree.js';
import type { TreeRoot } from './position-tree.js';
import { DEFAULT_TREE_DEPTH, DEFAULT_TREE_MIN_GAMES } from './dto/position-tree.query.js';
import type { BoardTreeBody, PositionTreeQuery } from './dto/position-tree.query.js';

/** A tree written out: SGF or PDN text. */
export interface WrittenTree {
  readonly mediaType: string;
  readonly content: string;
  readonly filename: string;
}

type TreeStart = Pick<TreeRoot, 'setup' | 'fen' | 'line' | 'firstMover' | 'firstMoveNumber'>;
import { AppConfig } from '../common/config.js';
import { withDeadline } from '../common/client-gone.js';
import { searchTimeout } from '../common/problem-codes.js';
import type { PositionSought } from './positions.repository.js';

/** As GET /games. */
const DEFAULT_PAGE_SIZE = 20;

/** A position as a search needs it: its key's bytes, its board, its orientation against the canonical one. */
interface Sought {
  readonly family: Family;
  readonly width: number;
  readonly height: number;
  /** The canonical key, 8 bytes. */
  readonly key: Buffer;
  /** The transform turning the queried board into the canonical orientation. */
  readonly transform: Transform;
  /** The canonical position's own symmetries (index into SYMMETRY_GROUPS' transforms). */
  readonly group: readonly Transform[];
  readonly symmetry: SymmetryMode;
}

/**
 * Search by position (docs/positions.md): which games reach a position, and what they played next.
 * A position comes from a game and a ply (its indexed entry) or is written out (SGF setup, FEN); a
 * cursor carries the position and the filters, so `next` alone continues the search.
 */
@Injectable()
export class PositionsService {
  /** Every read on a replica when there is one (DATABASE_REPLICA_URLS); a game it does not have yet is looked for on the primary. */
  constructor(
    @InjectReads(PositionsRepository) private readonly positions: Reads<PositionsRepository>,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async gamesOfGame(query: GamePositionQuery): Promise<PositionGamesPageDto> {
    return this.bounded(async () => {
      const cursor = query.cursor === undefined ? undefined : decodePositionCursor(query.cursor);
      const sought = cursor?.sought ?? (await this.ofGame(query));
      return this.games(sought, query, cursor?.games);
    });
  }

  async gamesOfBoard(body: BoardPositionBody): Promise<PositionGamesPageDto> {
    return this.bounded(async () => {
      const cursor = body.cursor === undefined ? undefined : decodePositionCursor(body.cursor);
      return this.games(cursor?.sought ?? ofBoard(body), body, cursor?.games);
    });
  }

  async explorerOfGame(query: ExplorerGameQuery): Promise<ExplorerDto> {
    return this.bounded(async () => this.explorer(await this.ofGame(query), query, query.by));
  }

  async explorerOfBoard(body: ExplorerBoardBody): Promise<ExplorerDto> {
    return this.bounded(() => this.explorer(ofBoard(body), body, body.by));
  }

  /** A position's history (position-history.ts): the games reaching it by year. */
  async historyOfGame(query: GamePositionQuery): Promise<PositionHistoryDto> {
    return this.bounded(async () => this.history(await this.ofGame(query), query));
  }

  async historyOfBoard(body: BoardPositionBody): Promise<PositionHistoryDto> {
    return this.bounded(() => this.history(ofBoard(body), body));
  }

  private async history(sought: Sought, query: PositionFiltersQuery): Promise<PositionHistoryDto> {
    // One answer, no pages: a cursor is not followed, but a forged one is refused as everywhere.
    if (query.cursor !== undefined) resolveSearch({ cursor: decodePositionCursor(query.cursor).games }, PositionFiltersQuery);
    const { filters } = resolveSearch(searchFilters(query));
    const target = soughtRows(sought);
    return historyOf(await this.positions.read((positions) => positions.years(target, gameFilters(filters))));
  }

  /** The explorer as a tree (position-tree.ts): every move played in at least `minGames` games, to `depth` plies. */
  async treeOfGame(query: PositionTreeQuery): Promise<WrittenTree> {
    return this.bounded(async () => {
      const sought = await this.ofGame(query);
      const track = await this.positions.read((positions) => positions.track(query.game!));
      return this.tree(sought, query, gameLine(track!, query.ply!, query.game!), `game ${query.game} after ply ${query.ply}`);
    });
  }

  async treeOfBoard(body: BoardTreeBody): Promise<WrittenTree> {
    return this.bounded(() => {
      const sought = ofBoard(body);
      const written = body.family === 'checkers' ? `FEN ${body.fen}` : `SGF ${body.sgf}`;
      return this.tree(sought, body, writtenSetup(body.family, body, sought.key.readBigUInt64BE(0)), written);
    });
  }

  private async tree(sought: Sought, query: PositionTreeQuery | BoardTreeBody, start: TreeStart, asked: string): Promise<WrittenTree> {
    if (sought.family !== 'go' && sought.family !== 'dots' && sought.family !== 'checkers') {
      throw new ProblemException(400, 'position.family', `a tree is written for go, dots and checkers; not for ${sought.family}`);
    }
    if (query.cursor !== undefined) resolveSearch({ cursor: decodePositionCursor(query.cursor).games }, PositionFiltersQuery);
    const { depth: _depth, minGames: _minGames, ...rest } = query;
    const { filters } = resolveSearch(searchFilters(rest));
    const repositoryFilters = gameFilters(filters);
    const depth = query.depth ?? DEFAULT_TREE_DEPTH;
    const minGames = query.minGames ?? DEFAULT_TREE_MIN_GAMES;
    // Every symmetry: the root's games read once with their next positions, and followed in memory.
    // As they stand (symmetry=none): the explorer's own search at each node, which keeps only the
    // games whose board there is the node's as it stands.
    const source: TreeSource =
      sought.symmetry === 'all'
        ? arrivalsSource(
            await this.positions.read((positions) => positions.arrivals(soughtRows(sought), repositoryFilters, depth + 1)),
            sought.family,
            sought.width,
            sought.height,
          )
        : {
            moves: (at) => this.positions.read((positions) => positions.moves(soughtRows(at as Sought), repositoryFilters)),
            track: (game) => this.positions.read((positions) => positions.track(game)),
          };
    const built = await buildTree(source, sought, depth, minGames);
    const narrowed = Object.entries(filters).map(([name, value]) => `${name}=${String(value)}`);
    const comment = [
      `Tabula opening tree of ${asked}`,
      `${depth} plies deep, moves played in at least ${minGames} game${minGames === 1 ? '' : 's'}`,
      narrowed.length > 0 ? `games: ${narrowed.join(', ')}` : 'all games',
      `symmetry: ${sought.symmetry}`,
      `made ${new Date().toISOString().slice(0, 10)}`,
    ].join('; ');
    const family = sought.family;
    const content = writeTree({
      family,
      width: sought.width,
      height: sought.height,
      ...start,
      comment,
      positionComment: `${nodeComment(built.games, built.results, null, null)} reach this position`,
      children: built.children,
    });
    return { mediaType: TREE_MEDIA_TYPES[family], content, filename: `tree.${family === 'checkers' ? 'pdn' : 'sgf'}` };
  }

  /** A search under SEARCH_TIMEOUT_MS: past it, 503 search.timeout, and its statements cancelled on a server. */
  private bounded<T>(work: () => Promise<T>): Promise<T> {
    return withDeadline(this.config.SEARCH_TIMEOUT_MS, () => searchTimeout(this.config.SEARCH_TIMEOUT_MS), work);
  }

  private async games(sought: Sought, query: PositionFiltersQuery, gamesCursor: string | undefined): Promise<PositionGamesPageDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const { filters, after } = resolveSearch({ ...searchFilters(query), cursor: gamesCursor }, PositionFiltersQuery);
    const repositoryFilters = gameFilters(filters);
    const target = soughtRows(sought);
    const { hits, total } = await this.positions.read((positions) => positions.games(target, { ...repositoryFilters, pastId: after?.id }, limit + 1));
    const page = hits.slice(0, limit);
    const last = page[page.length - 1];
    return {
      items: page.map((hit) => ({
        ...toGameSummaryDto(hit.game),
        ply: hit.ply,
        // The queried board to the canonical one, then the canonical one back to the game's.
        transform: transformName(compose(inverse((hit.entry[8] & 7) as Transform), sought.transform)),
      })),
      next: hits.length > limit ? encodePositionCursor(sought, encodeCursor(filters, { id: last.game.id })) : null,
      total,
    };
  }

  private async explorer(sought: Sought, query: PositionFiltersQuery, by?: ExplorerBreakdown): Promise<ExplorerDto> {
    // The explorer answers in one page: a cursor sent to it is not followed, but a forged one is refused as everywhere.
    if (query.cursor !== undefined) resolveSearch({ cursor: decodePositionCursor(query.cursor).games }, PositionFiltersQuery);
    const { filters } = resolveSearch(searchFilters(query));
    const repositoryFilters = gameFilters(filters);
    const target = soughtRows(sought);
    const byYear =
      by === 'year'
        ? await this.positions.read(async (positions) => positions.movesByYear(target, repositoryFilters, (await positions.hasRanks()) ? levelOf(sought.family) : null))
        : undefined;
    const rows = byYear ?? (await this.positions.read((positions) => positions.moves(target, repositoryFilters)));
    const games = rows.reduce((sum, row) => sum + row.games, 0);
    const moves = new Map<string, ExplorerMoveDto>();
    for (const row of rows) {
      // A game that ended in the position counts among its games, with no move.
      if (row.move[0] === NO_MOVE && row.move[1] === NO_MOVE) continue;
      const hex = row.move.toString('hex');
      let move = moves.get(hex);
      if (!move) {
        move = { ...readPositionMove(sought.family, row.move, inverse(sought.transform), sought.width, sought.height), games: 0, results: {}, lastPlayed: null, game: row.newest };
        moves.set(hex, move);
      }
      move.games += row.games;
      move.game = Math.max(move.game, row.newest);
      move.results[row.result] = (move.results[row.result] ?? 0) + row.games;
      if (row.lastPlayed !== null && (move.lastPlayed === null || row.lastPlayed > move.lastPlayed)) move.lastPlayed = row.lastPlayed;
    }
    if (byYear) addYears(moves, byYear, sought.family);
    return { games, moves: [...moves.values()].sort((a, b) => b.games - a.games || a.move.localeCompare(b.move)) };
  }

  /** The position of a game after a ply, from its indexed entry. */
  private async ofGame(query: GamePositionQuery): Promise<Sought> {
    if (query.game === undefined || query.ply === undefined) {
      throw new ProblemException(400, 'request.invalid', 'name the position by `game` and `ply` (or continue a search with its `cursor`)');
    }
    const game = query.game;
    const track = await this.positions.read((positions) => positions.track(game), (found) => found === undefined);
    if (!track) {
      if (!(await this.positions.read((positions) => positions.gameExists(game), (exists) => !exists))) throw new ProblemException(404, 'game.not_found', `there is no game ${query.game}`);
      throw new ProblemException(
        409,
        'position.not_indexed',
        `game ${query.game} has no positions in the index: it was stored before the index, or it is not a game the rules replay; POST /games/${query.game}/reindex indexes it`,
      );
    }
    if (query.ply > track.plies) {
      throw new ProblemException(422, 'position.ply_out_of_range', `game ${query.game} has positions for plies 0 to ${track.plies}; there is no ply ${query.ply}`);
    }
    const family = track.family as Family;
    const stride = positionStride(family);
    const entry = track.entries.subarray(query.ply * stride, (query.ply + 1) * stride);
    return {
      family,
      width: track.width,
      height: track.height,
      key: Buffer.from(entry.subarray(0, 8)),
      transform: (entry[8] & 7) as Transform,
      group: groupTransforms(entry[8] >> 3),
      symmetry: query.symmetry ?? 'all',
    };
  }
}

/** The position a client wrote out (400 `position.invalid` or `position.family` when it is none). */
function ofBoard(body: BoardPositionBody): Sought {
  try {
    const queried = queryPosition(body.family, { sgf: body.sgf, fen: body.fen });
    const key = Buffer.alloc(8);
    key.writeBigUInt64BE(queried.keys.canonical.key);
    const t0 = queried.leastTransforms[0];
    return {
      family: queried.family,
      width: queried.width,
      height: queried.height,
      key,
      transform: t0,
      group: queried.leastTransforms.map((t) => compose(t, inverse(t0))),
      symmetry: body.symmetry ?? 'all',
    };
  } catch (error) {
    // An SGF that does not parse is no position either: one code for what the client wrote.
    if (error instanceof FormatError) throw new ProblemException(400, error.code === 'position.family' ? error.code : 'position.invalid', error.message);
    throw error;
  }
}

/** What the repository looks for. An exact search keeps the games whose board at the position is the queried one as it stands. */
function soughtRows(sought: Sought): PositionSought {
  return {
    key: sought.key,
    bucket: bucketAt(sought.key, 0),
    top: keyTopAt(sought.key, 0),
    stride: positionStride(sought.family),
    // The game's board is the queried one when its transform to the canonical board is one of the
    // canonical position's own symmetries after the queried board's transform.
    transforms: sought.symmetry === 'none' ? sought.group.map((s) => compose(s, sought.transform)) : null,
  };
}

/** The filters of GET /games a position query carries. */
function searchFilters(query: PositionFiltersQuery & { game?: string; ply?: number; sgf?: string; fen?: string }): SearchFilters {
  const { limit: _limit, cursor: _cursor, symmetry: _symmetry, game: _game, ply: _ply, sgf: _sgf, fen: _fen, ...filters } = query;
  return filters as SearchFilters;
}

/** A cursor of a position search: the position, and the cursor of GET /games for the filters and where the page ended. */
function encodePositionCursor(sought: Sought, games: string): string {
  const p = { f: sought.family, w: sought.width, h: sought.height, k: sought.key.toString('hex'), t: sought.transform, g: sought.group, s: sought.symmetry };
  return Buffer.from(JSON.stringify({ v: 1, p, c: games })).toString('base64url');
}

/** A board side in a cursor: 1 to 4 digits, as the `boardSize` filter takes it. */
const MAX_SIDE = 9999;

/** A position search's cursor, checked whole (400 `request.bad_cursor` saying what is wrong); its games cursor is checked by resolveSearch. */
function decodePositionCursor(cursor: string): { sought: Sought; games: string } {
  const { p, c } = readCursor(cursor, ['p', 'c']);
  if (typeof c !== 'string') throw badCursor(`its games cursor ("c") is ${shown(c)}, not text`);
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw badCursor(`its position ("p") is ${shown(p)}, not a JSON object`);
  const { f, w, h, k, t, g, s, ...rest } = p as Record<string, unknown>;
  const isTransform = (value: unknown) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 7;
  const isSide = (value: unknown) => Number.isInteger(value) && (value as number) >= 1 && (value as number) <= MAX_SIDE;
  const wrong =
    Object.keys(rest).length > 0 ? `it holds ${shown(Object.keys(rest)[0])}, which no position has`
    : !(FAMILIES as readonly unknown[]).includes(f) ? `its family is ${shown(f)}, not one of ${FAMILIES.join(', ')}`
    : !isSide(w) || !isSide(h) ? `its board is ${shown(w)} by ${shown(h)}, not two sides of 1 to ${MAX_SIDE}`
    : typeof k !== 'string' || !/^[0-9a-f]{16}$/.test(k) ? `its key is ${shown(k)}, not 16 hexadecimal digits`
    : !isTransform(t) ? `its transform is ${shown(t)}, not 0 to 7`
    : !Array.isArray(g) || g.length < 1 || g.length > 8 || !g.every(isTransform) || new Set(g).size !== g.length ? `its symmetries are ${shown(g)}, not 1 to 8 different transforms 0 to 7`
    : !(SYMMETRY_MODES as readonly unknown[]).includes(s) ? `its symmetry is ${shown(s)}, not one of ${SYMMETRY_MODES.join(', ')}`
    : undefined;
  if (wrong !== undefined) throw badCursor(`its position: ${wrong}`);
  return {
    sought: { family: f as Family, width: w as number, height: h as number, key: Buffer.from(k as string, 'hex'), transform: t as Transform, group: g as Transform[], symmetry: s as SymmetryMode },
    games: c,
  };
}
