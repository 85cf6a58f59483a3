import { doesNotFit } from '../../../core/errors.js';
import { BLACK, EMPTY, GoSetupPoint } from '../../../rules/go/index.js';
import {
  GoColor,
  GoGameReplay,
  GoInterchangeGame,
  GoInterchangeMove,
  GoInterchangeSetupPoint,
  GoLineMove,
  GoTrackOptions,
  ReplayedGoMove,
  goLineTrack,
  goResultNotation,
  interchangeMoves,
  interchangeTree,
  sgfLetters,
} from '../../families/go/index.js';
import type { MainLine, PositionTrack } from '../../plugin.js';
import { goLine } from '../../families/lines.js';
import { escapeValue, firstText, SGF_PLAYER_COLOURS } from '../../syntaxes/sgf/index.js';
import type { SgfGoGame, SgfGoMove } from './model.js';
import { SGF_GO_ROOT, writeSgfTree } from './regenerate.js';

/** Root properties of game information and the interchange's names for them. */
const GAME_INFO: readonly (readonly [string, string])[] = [
  ['EV', 'event'],
  ['DT', 'date'],
  ['PC', 'place'],
  ['RU', 'rules'],
  ['RO', 'round'],
  ['GN', 'gameName'],
  ['SO', 'source'],
  ['AN', 'annotator'],
  ['CP', 'copyright'],
  ['US', 'user'],
  ['TM', 'timeLimit'],
  ['OT', 'overtime'],
  ['ON', 'opening'],
  ['GC', 'gameComment'],
];
/** Text properties (line breaks are content); the others are SimpleText. */
const TEXT = new Set(['GC']);
/** Letters address 52 points a side (`a`-`z`, `A`-`Z`). */
const MAX_SIDE = 52;

/**
 * An SGF Go game in the family's plain terms: players by colour (black first) with `PB`/`PW`,
 * `BR`/`WR`, `BT`/`WT`; the root's setup stones and those of move-less nodes (carried to the next
 * move, as the replay applies them); every move and variation; `KM`, `HA`, `RE`, and the game
 * information of {@link GAME_INFO}. Comments, markup and other properties are not carried.
 */
export function sgfToInterchange(game: SgfGoGame): GoInterchangeGame {
  const root = game.tree.root;
  const info: Record<string, string> = {};
  for (const property of root.properties) {
    const key = GAME_INFO.find(([id]) => id === property.id)?.[1];
    if (key === undefined || key in info) continue;
    const value = TEXT.has(property.id) ? firstText(root, property.id) : game.text(property.id);
    if (value !== null && value.trim() !== '') info[key] = value;
  }
  return {
    family: 'go',
    boardWidth: game.width,
    boardHeight: game.height,
    komi: game.komi?.value ?? null,
    komiText: game.text('KM'),
    handicap: game.handicap,
    players: SGF_PLAYER_COLOURS.map((color) => {
      const [name, rating, team] = color === 'black' ? ['PB', 'BR', 'BT'] : ['PW', 'WR', 'WT'];
      return { color, name: game.text(name), id: null, rating: game.text(rating), team: game.text(team) };
    }),
    setup: rootSetup(game),
    moves: interchangeTree(game.roots, (move: SgfGoMove) => ({
      player: move.color === 'black' ? 0 : 1,
      color: move.color,
      point: move.point,
      ...(move.setup ? { setup: move.setup.map(setupPoint) } : {}),
    })),
    result: game.result,
    resultText: game.text('RE'),
    info,
  };
}

/**
 * The positions of the game's main line (the family's track), read off the model: the same track as
 * that of {@link sgfToInterchange}'s game, without building the game information and every
 * variation first — a stored game's reading makes it for each game an import holds.
 */
export function sgfPositionTrack(game: SgfGoGame, options: GoTrackOptions): PositionTrack | null {
  return goLineTrack(game.width, game.height, rootSetup(game), mainLineOf(game), options);
}

/**
 * The game's main line as the family's replay takes it (`FormatPlugin.line`), read off the model as
 * {@link sgfPositionTrack} reads it. With the reading's replay of the game, each move says what it
 * took there, and the family's track does not play the line a second time.
 */
export function sgfLine(game: SgfGoGame, replay?: GoGameReplay<SgfGoMove>): MainLine {
  return goLine(game.width, game.height, rootSetup(game), mainLineOf(game, replay?.mainLine));
}

/** What a move took, as the line's moves say it: none shared. */
const TOOK_NOTHING: readonly number[] = Object.freeze([]);

/**
 * The moves of the main line (the first child of each node), with the points set up before each;
 * with `replayed` (the replay's main line, the same nodes in the same order), what each move took.
 */
function mainLineOf(game: SgfGoGame, replayed?: readonly ReplayedGoMove<SgfGoMove>[]): GoLineMove[] {
  const nodes: SgfGoMove[] = [];
  for (let move: SgfGoMove | undefined = game.roots[0]; move !== undefined; move = move.children[0]) nodes.push(move);
  const told = replayed !== undefined && replayed.length === nodes.length && replayed.every((done, i) => done.node === nodes[i]);
  return nodes.map((move, i): GoLineMove => ({
    color: move.color,
    point: move.point,
    ...(move.setup ? { setup: move.setup.map(setupPoint) } : {}),
    ...(told ? { took: tookBy(replayed[i], game.width) } : {}),
  }));
}

/** What a replayed move took, as a line's move says it (`y * size + x`), or null when it was illegal. */
function tookBy(done: ReplayedGoMove<SgfGoMove>, size: number): readonly number[] | null {
  if (done.illegal !== null) return null;
  return done.captured.length === 0 ? TOOK_NOTHING : done.captured.map((p) => p.y * size + p.x);
}

/** The root's setup stones, black then white. */
function rootSetup(game: SgfGoGame): GoInterchangeSetupPoint[] {
  return [...game.setup.black.map((p) => ({ x: p.x, y: p.y, cell: 'black' as const })), ...game.setup.white.map((p) => ({ x: p.x, y: p.y, cell: 'white' as const }))];
}

/** A set-up point of the rules engine in the family's terms. */
export function setupPoint(p: GoSetupPoint): GoInterchangeSetupPoint {
  return { x: p.x, y: p.y, cell: p.cell === EMPTY ? 'empty' : p.cell === BLACK ? 'black' : 'white' };
}

/** The synthetic root node of the written tree (the game information); the moves hang below it. */
const ROOT = Symbol('root');

/**
 * A game of the family as SGF FF[4] (UTF-8, the layout of the plugin's regenerated files): a root
 * node with the board, komi, handicap, players, result, game information and setup stones, then one
 * node per move (`B[]` for a pass), setup inside the tree in a node of its own before its move, and
 * every variation. What SGF cannot hold is a 422 `export.does_not_fit`: more than two players, two
 * players of one colour, a player who plays both colours or none, a side past 52 points, a point
 * SGF cannot address (or that would read as a `tt` pass).
 */
export function sgfFromInterchange(game: GoInterchangeGame): string {
  const { boardWidth: width, boardHeight: height } = game;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    throw doesNotFit(`the board is ${width}x${height}: SGF addresses sides of 1 to ${MAX_SIDE} points`);
  }
  if (game.players.length > 2) {
    throw doesNotFit(`the game has ${game.players.length} players: SGF names two, one per colour (PB, PW)`);
  }
  const seatOf = new Map<GoColor, number>();
  game.players.forEach((p, seat) => {
    const who = `player ${seat + 1}${p.name ? ` (${p.name})` : ''}`;
    if (p.color === null) throw doesNotFit(`${who} has no colour: SGF names players by colour (PB, PW)`);
    if (seatOf.has(p.color)) throw doesNotFit(`two players play ${p.color}: SGF names one player per colour (PB, PW)`);
    seatOf.set(p.color, seat);
  });
  for (const { move, ply } of interchangeMoves(game)) {
    const color = game.players[move.player]?.color;
    if (color === undefined) throw doesNotFit(`ply ${ply} is played by player ${move.player + 1}, whom the game does not name`);
    if (move.point !== null && move.color !== null && move.color !== color) {
      throw doesNotFit(`ply ${ply}: a ${move.color} stone played by the ${color} player: SGF ties each colour to one player`);
    }
    if (move.point !== null) checkPoint(move.point, ply, width, height);
  }

  const rootText = rootNode(game, seatOf);
  return writeSgfTree<GoInterchangeMove | typeof ROOT>(
    ROOT,
    (item) => (item === ROOT ? game.moves : item.next),
    (item) => (item === ROOT ? rootText : moveNodes(item, game)),
  );
}

function checkPoint(point: { x: number; y: number }, ply: number, width: number, height: number): void {
  if (point.x >= MAX_SIDE || point.y >= MAX_SIDE) throw doesNotFit(`ply ${ply} is played at x=${point.x} y=${point.y}: SGF letters address 0 to ${MAX_SIDE - 1}`);
  if (point.x === 19 && point.y === 19 && width <= 19 && height <= 19) {
    throw doesNotFit(`ply ${ply} is played at x=19 y=19, off the board: SGF would write it tt, which reads as a pass on this board`);
  }
}

function rootNode(game: GoInterchangeGame, seatOf: Map<GoColor, number>): string {
  const parts = [SGF_GO_ROOT];
  const put = (id: string, value: string | null) => {
    if (value !== null) parts.push(`${id}[${escapeValue(value)}]`);
  };
  parts.push(game.boardWidth === game.boardHeight ? `SZ[${game.boardWidth}]` : `SZ[${game.boardWidth}:${game.boardHeight}]`);
  put('KM', game.komi !== null ? String(game.komi) : game.komiText);
  put('HA', game.handicap === null ? null : String(game.handicap));
  for (const color of SGF_PLAYER_COLOURS) {
    const player = seatOf.has(color) ? game.players[seatOf.get(color)!] : undefined;
    const [name, rating, team] = color === 'black' ? ['PB', 'BR', 'BT'] : ['PW', 'WR', 'WT'];
    put(name, player?.name ?? null);
    put(rating, player?.rating ?? null);
    put(team, player?.team ?? null);
  }
  put('RE', game.resultText ?? (game.result === null ? null : goResultNotation(game.result)));
  for (const [id, key] of GAME_INFO) put(id, game.info[key] ?? null);
  parts.push(setupProperties(game.setup));
  return parts.join('') + '\n';
}

function setupProperties(points: readonly GoInterchangeSetupPoint[]): string {
  const parts: string[] = [];
  for (const [id, cell] of [['AE', 'empty'], ['AB', 'black'], ['AW', 'white']] as const) {
    const values = points.filter((p) => p.cell === cell).map((p) => `[${sgfLetters(p)}]`);
    if (values.length > 0) parts.push(id + values.join(''));
  }
  return parts.join('');
}

/** A move's node, after a node of its own for the setup that comes before it (FF[4] keeps setup and moves apart). */
function moveNodes(move: GoInterchangeMove, game: GoInterchangeGame): string {
  const color = game.players[move.player].color;
  const setup = move.setup && move.setup.length > 0 ? `;${setupProperties(move.setup)}` : '';
  return `${setup};${color === 'black' ? 'B' : 'W'}[${move.point === null ? '' : sgfLetters(move.point)}]`;
}
