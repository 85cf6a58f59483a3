import { doesNotFit } from '../../../core/errors.js';
import { DotsGame, MAX_SIDE, scorePosition } from '../../../rules/dots/index.js';

import type { DotsInterchangeGame, DotsSetupDot } from '../../families/dots/index.js';
import type { FormatDescriptor } from '../../plugin.js';
import type { BoardState } from './model.js';

/*
 * The Dots server's board state (204) and the family's interchange model. A 204 answer is a
 * snapshot: it becomes a game without moves whose `snapshot` holds the points, and whose setup is
 * its live dots when the board has nothing else (no captured dot, no surrounded point) — only then
 * can another format replay it. Written from a game of moves, it is the main line's final position.
 */

const KEY = 'Dots server:';

export function boardStateToInterchange(state: BoardState): DotsInterchangeGame {
  const onlyLive = state.points.every((code) => code <= 4);
  const setup: DotsSetupDot[] = [];
  if (onlyLive) {
    state.points.forEach((code, i) => {
      if (code >= 1) setup.push({ seat: code - 1, cell: { row: Math.floor(i / state.width), col: i % state.width } });
    });
  }
  const extra: Record<string, string> = { [`${KEY}ACU`]: state.toMove, [`${KEY}AUF`]: state.active.map((a) => (a ? '1' : '0')).join(' ') };
  if (state.description !== null) extra[`${KEY}description`] = state.description;
  return {
    family: 'dots',
    field: { width: state.width, height: state.height, stated: true },
    // The answer names no player, only the login whose move it is (kept as an extra).
    players: state.active.map((_, seat) => ({ name: null, externalId: null, rating: null, colour: String(seat + 1) })),
    rules: { extraMove: null, crossStart: null, text: null },
    setup,
    moves: [],
    variations: [],
    snapshot: { points: [...state.points] },
    result: null,
    date: null,
    event: null,
    extra,
  };
}

/**
 * A board state of the game: its snapshot when it is one, else the position after the main line
 * (setup, then every dot; stops mark the player inactive in `AUF`). `SCR` is regenerated from the
 * board, as the plugin's reader scores it. Refused: grounding (the dots given up are captured by no
 * surround, which the board cannot show) and fields past 50.
 */
export function interchangeToBoardState(game: DotsInterchangeGame, format: FormatDescriptor): string {
  const { width, height } = game.field;
  const players = game.players.length;
  if (players < 2 || players > 4) throw doesNotFit(`${players} players (a board state has 2 to 4)`, format);
  if (width > MAX_SIDE || height > MAX_SIDE) throw doesNotFit(`a field of ${width}x${height}: a board state is at most ${MAX_SIDE}x${MAX_SIDE}`, format);
  const active = new Array<boolean>(players).fill(true);
  let points: readonly number[];
  let toMove = 0;
  const fromSnapshot = game.snapshot !== null && game.moves.length === 0;
  if (fromSnapshot) {
    points = game.snapshot!.points;
  } else {
    const engine = new DotsGame({ width, height, players, extraMove: game.rules.extraMove === true });
    for (const dot of game.setup) engine.place(dot.seat, dot.cell.row, dot.cell.col);
    let last = -1;
    game.moves.forEach((move, i) => {
      if (move.kind === 'ground') throw doesNotFit(`move ${i + 1} is grounding: a board state cannot show the dots given up, which no surround captures`, format);
      if (move.kind === 'stop') active[move.seat] = false;
      if (move.kind === 'dot' || move.kind === 'add') engine.place(move.seat, move.cell.row, move.cell.col);
      if (move.kind !== 'add') last = move.seat;
    });
    points = engine.pointCodes();
    // Next in turn after the last mover, skipping players who stopped.
    for (let step = 1; step <= players; step++) {
      const seat = (last + step + players) % players;
      if (active[seat]) {
        toMove = seat;
        break;
      }
    }
  }
  const score = scorePosition({ width, height, players, points });
  const description = game.extra[`${KEY}description`];
  const writtenActive = game.extra[`${KEY}AUF`];
  const login = (seat: number): string => {
    const name = game.players[seat].name;
    return name !== null && /^\S+$/.test(name) ? name : `player${seat + 1}`;
  };
  const acu = fromSnapshot ? (game.extra[`${KEY}ACU`] ?? login(0)) : login(toMove);
  const auf = fromSnapshot && writtenActive !== undefined && writtenActive.split(' ').length === players ? writtenActive : active.map((a) => (a ? 1 : 0)).join(' ');
  const rows: string[] = [];
  for (let row = 0; row < height; row++) rows.push(`GAL ${points.slice(row * width, (row + 1) * width).join('')}`);
  return [description === undefined ? '204' : `204 ${description}`, `ACU ${acu}`, `AUF ${auf}`, `SCR ${score.points.join(' ')}`, ...rows, '', ''].join('\n');
}
