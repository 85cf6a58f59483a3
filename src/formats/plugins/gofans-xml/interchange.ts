import { doesNotFit } from '../../../core/errors.js';
import { MAX_BOARD_SIZE, MIN_BOARD_SIZE } from '../../../rules/go/index.js';
import {
  GoColor,
  GoInterchangeGame,
  GoInterchangePlayer,
  GoResult,
  countVariations,
  goResultNotation,
  interchangeSetupCount,
  interchangeTree,
  parseGoResult,
} from '../../families/go/index.js';
import type { ReadLimits } from '../../../core/limits.js';
import { ReadGoFans, interpretGoFans, standardDocument } from './import-procedure.js';
import { regenerateGoFans } from './regenerate.js';
import { GoFansVersion, versionTraits } from './schemas.js';
import { GoFansDraft, GoFansDraftMove, writeGoFans } from './write.js';
import { XmlElement, attribute, trimXmlSpace } from './xml-tree.js';

/*
 * GoFans ↔ the Go family's interchange model. Besides the format's own Header elements (boardSize,
 * komi, players), the archive reads and writes these free Header elements after `<players>`:
 * `<result>` (the recorded result in SGF's RE notation, `W+2.5`, `B+R`, `0`…), `<handicap>` (a
 * number), `<rating playerId="…">` and `<team playerId="…">` (per player); any other element with
 * plain text is game information under its own name (`<event>`, `<date>`, `<place>`…).
 */

/** The largest coordinate the GoFans XSDs accept. */
const MAX_COORDINATE = 24;
const XML_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** Free Header elements the conversion gives a meaning of its own. */
const RESULT = 'result';
const HANDICAP = 'handicap';
const RATING = 'rating';
const TEAM = 'team';

/** A GoFans game, read and replayed, in the family's plain terms. Points and Removes (caches) are left behind. */
export function gofansToInterchange({ document, game, replay }: ReadGoFans): GoInterchangeGame {
  const { ratings, teams, info, resultText, handicap } = readHeaderFields({ document, game });
  const players: GoInterchangePlayer[] = game.players.map((p) => ({
    color: replay.colors[p.seat],
    name: p.name === '' ? null : p.name,
    id: p.id,
    rating: ratings.get(p.seat) ?? null,
    team: teams.get(p.seat) ?? null,
  }));
  return {
    family: 'go',
    boardWidth: game.boardSize,
    boardHeight: game.boardSize,
    komi: game.komiText === null ? null : game.komi,
    komiText: game.komiText,
    handicap,
    players,
    setup: [],
    moves: interchangeTree(game.roots, (move) => ({ player: move.seat, color: move.color ?? replay.colors[move.seat], point: move.point })),
    result: resultText !== null ? parseGoResult(resultText) : resignation(game.players.map((p) => p.points), replay.colors),
    resultText,
    info: Object.fromEntries(info),
  };
}

/** What a GoFans Header says beside its players, each field by name (`<rating playerId="…">` by seat). */
export interface GoFansHeaderFields {
  readonly ratings: ReadonlyMap<number, string>;
  readonly teams: ReadonlyMap<number, string>;
  readonly info: ReadonlyMap<string, string>;
  readonly resultText: string | null;
  readonly handicap: number | null;
}

/** The Header's fields after `<players>`, read once for the conversion and the analysis (its players' ratings). */
export function readHeaderFields({ document, game }: Pick<ReadGoFans, 'document' | 'game'>): GoFansHeaderFields {
  const header = document.root.children[2];
  const free = header.children.slice(header.children.findIndex((child) => child.name === 'players') + 1);
  const seatById = new Map(game.players.map((p) => [p.id, p.seat]));
  const ratings = new Map<number, string>();
  const teams = new Map<number, string>();
  const info = new Map<string, string>();
  let resultText: string | null = null;
  let handicap: number | null = null;
  for (const element of free) {
    const value = plainText(element);
    if (value === null) continue;
    const seat = seatOf(element, seatById);
    if (element.name === RESULT && resultText === null) resultText = value;
    else if (element.name === HANDICAP && handicap === null && /^\d+$/.test(value)) handicap = Number(value);
    else if (element.name === RATING && seat !== undefined) ratings.set(seat, value);
    else if (element.name === TEAM && seat !== undefined) teams.set(seat, value);
    else info.set(element.name, info.has(element.name) ? `${info.get(element.name)}; ${value}` : value);
  }
  return { ratings, teams, info, resultText, handicap };
}

function plainText(element: XmlElement): string | null {
  if (element.children.length > 0) return null;
  const value = trimXmlSpace(element.text);
  return value === '' ? null : value;
}

function seatOf(element: XmlElement, seatById: Map<string, number>): number | undefined {
  const id = attribute(element, 'playerId')?.trim();
  return id !== undefined && /^\d+$/.test(id) ? seatById.get(BigInt(id).toString()) : undefined;
}

/** Points −1 is the format's record of a resignation: with one resigned player, the other colour won. */
function resignation(points: readonly number[], colors: readonly (GoColor | null)[]): GoResult | null {
  const resigned = points.flatMap((p, seat) => (p === -1 ? [seat] : []));
  if (resigned.length !== 1) return null;
  const loser = colors[resigned[0]];
  if (loser === null) return null;
  const winner: GoColor = loser === 'black' ? 'white' : 'black';
  return colors.includes(winner) ? { kind: 'win', winner, win: { how: 'resignation' } } : null;
}

/**
 * A game of the family written as GoFans `version`, with Points (and, in 2.x, Removes) regenerated
 * by replaying it. What GoFans cannot hold is a 422 `export.does_not_fit`: a board that is not
 * square or not 2..25, setup stones, variations in 1.1/2.1, komi that is not a number, a point past
 * the XSDs' coordinates, a game without players.
 */
export function gofansFromInterchange(game: GoInterchangeGame, version: GoFansVersion, limits: ReadLimits): { version: GoFansVersion; content: string } {
  const nested = versionTraits(version).nested;
  if (game.boardWidth !== game.boardHeight) {
    throw doesNotFit(`the board is ${game.boardWidth}x${game.boardHeight}: GoFans boards are square (one <boardSize>)`);
  }
  if (game.boardWidth < MIN_BOARD_SIZE || game.boardWidth > MAX_BOARD_SIZE) {
    throw doesNotFit(`the board is ${game.boardWidth}x${game.boardHeight}: GoFans <boardSize> is ${MIN_BOARD_SIZE} to ${MAX_BOARD_SIZE}`);
  }
  const setup = interchangeSetupCount(game);
  if (setup > 0) {
    throw doesNotFit(`the game sets up ${setup} point(s) without a move (handicap or setup stones): GoFans has no place for setup stones`);
  }
  const variations = countVariations(game);
  if (!nested && variations > 0) {
    throw doesNotFit(`the game has ${variations} variation(s) besides the main line: GoFans ${version} is a flat move list (GoFans 1.2 and 2.2 hold variations)`);
  }
  if (game.komiText !== null && game.komi === null) {
    throw doesNotFit(`the komi "${game.komiText}" is not a number: GoFans <komi> is a decimal`);
  }
  if (game.players.length === 0) throw doesNotFit('the game names no player: GoFans needs at least one <player>');
  const ids = playerIds(game.players);

  const moves = draftMoves(game, ids, nested);
  const resigned = resignedColor(game);
  const draft: GoFansDraft = {
    boardSize: game.boardWidth,
    komi: game.komi === null ? undefined : decimal(game.komi, 'komi'),
    players: game.players.map((p, seat) => ({ id: ids[seat], name: p.name ?? '', points: resigned !== null && p.color === resigned ? '-1' : '0' })),
    headerFields: headerFields(game, ids, resigned),
  };
  const text = writeGoFans(version, draft, moves);
  // The plugin's own reader and regenerator: the file is read back, replayed, and its Points and
  // Removes spliced in, exactly as regenerate() does for an uploaded file.
  const read = interpretGoFans(standardDocument(text), version, limits);
  return regenerateGoFans(text, read.game, read.replay, version);
}

/** The players' own ids when they are distinct non-negative integers (GoFans' ids), else their seats. */
function playerIds(players: readonly GoInterchangePlayer[]): string[] {
  const own = players.map((p) => (p.id !== null && /^\d+$/.test(p.id.trim()) ? BigInt(p.id.trim()).toString() : null));
  return own.every((id) => id !== null) && new Set(own).size === own.length ? (own as string[]) : players.map((_, seat) => String(seat));
}

/** The colour whose player the recorded result says resigned, when a player of each colour is there to say it with Points −1. */
function resignedColor(game: GoInterchangeGame): GoColor | null {
  const result = game.result;
  if (result?.kind !== 'win' || result.win.how !== 'resignation') return null;
  const loser: GoColor = result.winner === 'black' ? 'white' : 'black';
  const colors = game.players.map((p) => p.color);
  return colors.filter((c) => c === loser).length === 1 && colors.includes(result.winner) ? loser : null;
}

function headerFields(game: GoInterchangeGame, ids: readonly string[], resigned: GoColor | null): NonNullable<GoFansDraft['headerFields']> {
  const fields: NonNullable<GoFansDraft['headerFields']>[number][] = [];
  for (const [name, value] of Object.entries(game.info)) {
    if (!XML_NAME.test(name) || [RESULT, HANDICAP, RATING, TEAM].includes(name)) {
      throw doesNotFit(`the game information "${name}" has no GoFans Header element`);
    }
    fields.push([name, value]);
  }
  if (game.handicap !== null) fields.push([HANDICAP, String(game.handicap)]);
  // A resignation is the loser's Points −1; any other result is written as <result>.
  if (game.result !== null && resigned === null) {
    const text = game.resultText ?? goResultNotation(game.result);
    if (text !== null) fields.push([RESULT, text]);
  }
  game.players.forEach((p, seat) => {
    if (p.rating !== null) fields.push([RATING, p.rating, { playerId: ids[seat] }]);
    if (p.team !== null) fields.push([TEAM, p.team, { playerId: ids[seat] }]);
  });
  return fields;
}

/** The moves as GoFans writes them: stones with their colour, passes without (the player says whose). */
function draftMoves(game: GoInterchangeGame, ids: readonly string[], nested: boolean): GoFansDraftMove[] {
  interface Draft {
    playerId: string;
    color?: GoColor;
    point: { x: number; y: number } | null;
    next: Draft[];
  }
  const top: Draft[] = [];
  // Depth-first with the list each move goes into, iteratively (a tree may be thousands deep).
  const stack = [...game.moves].reverse().map((move) => ({ move, ply: 1, into: top }));
  while (stack.length > 0) {
    const { move, ply, into } = stack.pop()!;
    const player = game.players[move.player];
    if (player === undefined) throw doesNotFit(`ply ${ply} is played by player ${move.player}, whom the game does not name`);
    const draft: Draft = { playerId: ids[move.player], point: move.point, next: [] };
    if (move.point !== null) {
      const { x, y } = move.point;
      if (x > MAX_COORDINATE || y > MAX_COORDINATE) {
        throw doesNotFit(`ply ${ply} is played at x=${x} y=${y}: GoFans coordinates are 0 to ${MAX_COORDINATE}`);
      }
      const color = move.color ?? player.color;
      if (color === null) throw doesNotFit(`ply ${ply} places a stone of no colour: GoFans needs one for a stone`);
      draft.color = color;
    }
    into.push(draft);
    for (let i = move.next.length - 1; i >= 0; i--) stack.push({ move: move.next[i], ply: ply + 1, into: draft.next });
  }
  // Flat versions: the main line as a list (variations were refused before).
  if (!nested) {
    const line: Draft[] = [];
    for (let move = top[0]; move !== undefined; move = move.next[0]) line.push(move);
    return line;
  }
  return top;
}

/** A number as xs:decimal writes it (no exponent). */
function decimal(value: number, what: string): string {
  if (!Number.isFinite(value)) throw doesNotFit(`the ${what} ${value} is not a number GoFans can write`);
  const text = String(value);
  return /e/i.test(text) ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}
