import { ProblemException } from '../common/problem-codes.js';
import { throwIfUnwanted } from '../common/client-gone.js';
import { DEFAULT_LIMITS } from '../core/limits.js';
import { NO_MOVE, compose, groupTransforms, inverse, positionStride } from '../formats/families/positions.js';
import type { Transform } from '../formats/families/positions.js';
import { queryPosition } from '../formats/families/position-query.js';
import { readPositionMove } from '../formats/families/tracks.js';
import { parseSgf, propertyValues } from '../formats/syntaxes/sgf/index.js';
import type { Family } from '../formats/plugin.js';
import { count } from './position-tree.js';
import type { TreeNode, TreeRoot } from './position-tree.js';
import type { ArrivalRow, MoveRow, StoredTrack } from './positions.repository.js';

/** A position as the tree's search needs it (the service's own `Sought`). */
export interface TreeSought {
  readonly family: Family;
  readonly width: number;
  readonly height: number;
  readonly key: Buffer;
  readonly transform: Transform;
  readonly group: readonly Transform[];
  readonly symmetry: 'all' | 'none';
}

/** What the tree reads: the explorer's rows of a position, and a game's indexed positions. */
export interface TreeSource {
  moves(sought: TreeSought): Promise<MoveRow[]>;
  track(game: string): Promise<StoredTrack | undefined>;
}

/** How many nodes a tree may hold, past which it is refused (422 `tree.too_large`); tests lower it. */
export const TREE_LIMITS = { maxNodes: 100_000 };

/** The start of each family as a position written out, to tell a game that starts there (black or white to move). */
const STARTS: Record<'go' | 'dots' | 'checkers', (width: number, height: number, second: boolean) => { sgf?: string; fen?: string }> = {
  go: (width, _height, second) => ({ sgf: `(;SZ[${width}]${second ? 'PL[W]' : ''})` }),
  dots: (width, height, second) => ({ sgf: `(;SZ[${width === height ? width : `${width}:${height}`}]${second ? 'PL[W]' : ''})` }),
  checkers: (_width, _height, second) => ({ fen: `${second ? 'B' : 'W'}:W21-32:B1-12` }),
};

/** The canonical key of a family's start with the first (`second` false) or second side to move, or null when the family cannot say. */
function startKey(family: Family, width: number, height: number, second: boolean): bigint | null {
  if (family !== 'go' && family !== 'dots' && family !== 'checkers') return null;
  try {
    return queryPosition(family, STARTS[family](width, height, second)).keys.canonical.key;
  } catch {
    return null;
  }
}

interface Explored {
  readonly games: number;
  readonly moves: ExploredMove[];
}

interface ExploredMove {
  readonly bytes: Buffer;
  games: number;
  results: Record<string, number>;
  first: string | null;
  last: string | null;
  newest: number;
}

/**
 * The tree: breadth first from the position, each position's moves as the explorer counts them
 * (`source`: its own search at each node, or the root's games read once, {@link arrivalsSource}),
 * each move's position found in the newest game that played it (its entry after the first arrival
 * at the parent: the child's key, and its transform turned into the queried board's orientation).
 * A move with fewer than `minGames` games is left out, with everything below it.
 */
export async function buildTree(source: TreeSource, root: TreeSought, depth: number, minGames: number): Promise<{ games: number; results: Record<string, number>; children: TreeNode[] }> {
  const explored = new Map<string, Explored>();
  const tracks = new Map<number, StoredTrack | undefined>();
  const stride = positionStride(root.family);
  const explore = async (sought: TreeSought): Promise<Explored> => {
    const known = `${sought.key.toString('hex')}:${sought.symmetry === 'none' ? sought.group.map((s) => compose(s, sought.transform)).join(',') : '*'}`;
    let found = explored.get(known);
    if (found === undefined) {
      found = group(await source.moves(sought));
      explored.set(known, found);
    }
    return found;
  };
  const trackOf = async (game: number) => {
    if (!tracks.has(game)) tracks.set(game, await source.track(String(game)));
    return tracks.get(game);
  };

  const top = await explore(root);
  const results: Record<string, number> = {};
  for (const move of top.moves) for (const [result, n] of Object.entries(move.results)) results[result] = (results[result] ?? 0) + n;
  const children: TreeNode[] = [];
  let nodes = 0;
  let level: { sought: TreeSought; explored: Explored; into: TreeNode[] }[] = [{ sought: root, explored: top, into: children }];
  for (let ply = 1; ply <= depth && level.length > 0; ply++) {
    const next: typeof level = [];
    for (const { sought, explored: here, into } of level) {
      // Past SEARCH_TIMEOUT_MS, or the client gone: the loop stops rather than finish for nobody.
      throwIfUnwanted();
      for (const move of here.moves) {
        if (move.games < minGames) continue;
        nodes++;
        if (nodes > TREE_LIMITS.maxNodes) {
          throw new ProblemException(
            422,
            'tree.too_large',
            `the tree passes ${count(TREE_LIMITS.maxNodes)} nodes by ply ${ply} of ${depth}: raise minGames (now ${minGames}), lower depth, or narrow the games with filters (player, event, playedFrom…)`,
          );
        }
        const node: TreeNode = {
          move: readPositionMove(sought.family, move.bytes, inverse(sought.transform), sought.width, sought.height).move,
          games: move.games,
          results: move.results,
          firstYear: move.first === null ? null : Number(move.first.slice(0, 4)),
          lastYear: move.last === null ? null : Number(move.last.slice(0, 4)),
          children: [],
        };
        into.push(node);
        if (ply === depth) continue;
        const child = await childOf(sought, move, trackOf, stride);
        if (child !== undefined) next.push({ sought: child, explored: await explore(child), into: node.children });
      }
    }
    level = next;
  }
  return { games: top.games, results, children };
}

/**
 * The tree's reads answered from the games reaching its root, read once with their next positions
 * (PositionsRepository.arrivals): each position of those games, by key, with the move each game
 * played after its first arrival there, as the explorer counts them. One statement where asking
 * the explorer at each node took one search a node (at 100,000 games, tens of seconds for the
 * tree of depth 8 and 20 games a move). A node's games are the root's games that reach it: from
 * the start of the game (the empty board, the usual start) that is every game reaching it.
 */
/** A {@link MoveRow} being counted. */
interface Counted {
  move: Buffer;
  result: string;
  games: number;
  lastPlayed: string | null;
  firstPlayed: string | null;
  newest: number;
}

export function arrivalsSource(rows: readonly ArrivalRow[], family: Family, width: number, height: number): TreeSource {
  const stride = positionStride(family);
  const byKey = new Map<string, Map<string, Counted>>();
  const tracks = new Map<number, StoredTrack>();
  for (const row of rows) {
    const entries = row.entries;
    const count = Math.floor(entries.length / stride);
    tracks.set(row.game, { family, plies: count - 1, entries, width, height });
    // Keys and moves as latin1 text: a byte a character, cheaper map keys than hex.
    const seen: string[] = [];
    for (let i = 0, at = 0; i < count; i++, at += stride) {
      const key = entries.toString('latin1', at, at + 8);
      // Each game counted once at a position, by its first arrival.
      if (seen.includes(key)) continue;
      seen.push(key);
      // The last entry read: its move is counted only where the game ends there (its position's next entry is not read).
      const ended = entries[at + 9] === NO_MOVE && entries[at + 10] === NO_MOVE;
      if (i === count - 1 && !ended) continue;
      let moves = byKey.get(key);
      if (moves === undefined) byKey.set(key, (moves = new Map()));
      const group = `${entries.toString('latin1', at + 9, at + stride)}:${row.result}`;
      const known = moves.get(group);
      if (known === undefined) {
        moves.set(group, { move: Buffer.from(entries.subarray(at + 9, at + stride)), result: row.result, games: 1, lastPlayed: row.played, firstPlayed: row.played, newest: row.game });
        continue;
      }
      known.games++;
      if (row.game > known.newest) known.newest = row.game;
      if (row.played !== null && (known.lastPlayed === null || row.played > known.lastPlayed)) known.lastPlayed = row.played;
      if (row.played !== null && (known.firstPlayed === null || row.played < known.firstPlayed)) known.firstPlayed = row.played;
    }
  }
  return {
    moves: async (sought) => [...(byKey.get(sought.key.toString('latin1'))?.values() ?? [])],
    track: async (game) => tracks.get(Number(game)),
  };
}

/** The explorer's rows of a position as its moves, most played first (ties by their bytes). */
function group(rows: readonly MoveRow[]): Explored {
  let games = 0;
  const moves = new Map<string, ExploredMove>();
  for (const row of rows) {
    games += row.games;
    // A game that ended in the position counts among its games, with no move.
    if (row.move[0] === NO_MOVE && row.move[1] === NO_MOVE) continue;
    const hex = row.move.toString('hex');
    let move = moves.get(hex);
    if (!move) {
      move = { bytes: row.move, games: 0, results: {}, first: null, last: null, newest: row.newest };
      moves.set(hex, move);
    }
    move.games += row.games;
    move.newest = Math.max(move.newest, row.newest);
    move.results[row.result] = (move.results[row.result] ?? 0) + row.games;
    if (row.lastPlayed !== null && (move.last === null || row.lastPlayed > move.last)) move.last = row.lastPlayed;
    const first = row.firstPlayed ?? null;
    if (first !== null && (move.first === null || first < move.first)) move.first = first;
  }
  const sorted = [...moves.entries()].sort(([a, x], [b, y]) => y.games - x.games || a.localeCompare(b)).map(([, move]) => move);
  return { games, moves: sorted };
}

/**
 * The position after a move, in the queried board's orientation: in the newest game that played it,
 * the entry after its first arrival at the parent. The game's board turned by `t` is the canonical
 * parent, where the move is the explorer's; so the queried child turns into the game's child by
 * `inverse(t) ∘ T` (T the queried parent's transform), and into the canonical child by the next
 * entry's `t'` after that.
 */
async function childOf(parent: TreeSought, move: ExploredMove, trackOf: (game: number) => Promise<StoredTrack | undefined>, stride: number): Promise<TreeSought | undefined> {
  const track = await trackOf(move.newest);
  if (track === undefined) return undefined;
  const entries = track.entries;
  for (let at = 0; at + 2 * stride <= entries.length; at += stride) {
    if (!entries.subarray(at, at + 8).equals(parent.key)) continue;
    const t = (entries[at + 8] & 7) as Transform;
    const next = entries.subarray(at + stride, at + 2 * stride);
    const group = groupTransforms(next[8] >> 3);
    const turned = compose((next[8] & 7) as Transform, compose(inverse(t), parent.transform));
    // Of the transforms turning the child into the canonical board (the child's own symmetries after
    // this one), the least, as a search of the board written out takes it: its moves come out the same.
    const transform = Math.min(...group.map((s) => compose(s, turned))) as Transform;
    return { family: parent.family, width: parent.width, height: parent.height, key: Buffer.from(next.subarray(0, 8)), transform, group, symmetry: parent.symmetry };
  }
  return undefined;
}

/** The root of a tree from a game's position: the game's own moves from its start, which must be the family's start. */
export function gameLine(track: StoredTrack, ply: number, game: string): Pick<TreeRoot, 'setup' | 'fen' | 'line' | 'firstMover' | 'firstMoveNumber'> {
  const family = track.family as Family;
  const stride = positionStride(family);
  const start = track.entries.readBigUInt64BE(0);
  const firstMover = start === startKey(family, track.width, track.height, false) ? 0 : start === startKey(family, track.width, track.height, true) ? 1 : null;
  if (firstMover === null) {
    throw new ProblemException(
      422,
      'tree.unknown_start',
      `game ${game} does not start from the empty board or the usual start (handicap or setup stones, a FEN): the index keeps no board to write; send the position written out to POST /positions/tree`,
    );
  }
  const line: string[] = [];
  for (let i = 0; i < ply; i++) {
    const entry = track.entries.subarray(i * stride, (i + 1) * stride);
    line.push(readPositionMove(family, entry.subarray(9), inverse((entry[8] & 7) as Transform), track.width, track.height).move);
  }
  return { setup: { black: [], white: [] }, fen: null, line, firstMover, firstMoveNumber: 1 };
}

/** The root of a tree from a position written out: its setup (SGF `AB`/`AW`, or its FEN unless it is the start). */
export function writtenSetup(family: 'go' | 'dots' | 'checkers', written: { readonly sgf?: string; readonly fen?: string }, canonical: bigint): Pick<TreeRoot, 'setup' | 'fen' | 'line' | 'firstMover' | 'firstMoveNumber'> {
  if (family === 'checkers') {
    const fen = (written.fen ?? '').trim();
    const firstMover = fen.toUpperCase().startsWith('B') ? 1 : 0;
    const isStart = canonical === startKey('checkers', 8, 8, firstMover === 1);
    return { setup: { black: [], white: [] }, fen: isStart && firstMover === 0 ? null : fen, line: [], firstMover, firstMoveNumber: 1 };
  }
  // The SGF parsed already as the position: its setup values are written again as they are (compressed lists too).
  const root = parseSgf(new TextEncoder().encode(written.sgf ?? ''), DEFAULT_LIMITS).trees[0].root;
  const values = (id: string) => propertyValues(root, id).map((value) => value.text);
  const pl = values('PL')[0]?.trim().toUpperCase();
  return { setup: { black: values('AB'), white: values('AW') }, fen: null, line: [], firstMover: pl === 'W' || pl === '2' ? 1 : 0, firstMoveNumber: 1 };
}
