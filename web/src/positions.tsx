/**
 * Position search (POST /positions/games and /positions/explorer) with a board typed in by hand: a
 * Go board of 9, 13 or 19 points a side, each point clicked through black, white and empty, or a
 * Russian-draughts board whose dark squares are clicked through white man, white king, black man,
 * black king and empty; the side to move; then the moves played next from the position with their
 * counts and results, and the games that reach it (turned or mirrored boards too, unless asked for as
 * it stands), each opening at the ply it does. The board lives in the hash
 * (`#/positions?family=go&size=9&board=...X/..O&turn=W`), so a search can be linked, and a game's
 * page links its board here to be changed.
 */
import { useState } from 'preact/hooks';
import { edgeClasses, goPointName, GridBoard, sgfPoint, Stone } from './board-grid';
import { Choice } from './choice';
import { problemText } from './api';
import { ExplorerMoves, YearChart } from './explorer';
import { boardHistory, boardTree, exploreBoard, gamesThroughBoard } from './generated/sdk.gen';
import type { BoardPositionBody, ExplorerDto, GameDto, PlyDto, PositionGameDto, PositionGamesPageDto, PositionHistoryDto, SymmetryMode } from './generated/types.gen';
import { PagedResults, useFormFollowsSearch, usePagedSearch } from './paged';
import { RankSelect, rankQuery, rankRangeOf } from './ranks';
import { GameItem } from './search';
import { attachmentName, saveBlob } from './token';

type EditorFamily = 'go' | 'checkers';
/** The side to move: black or white, in either family. */
type Turn = 'B' | 'W';

/** What a search asks: the form's state, and the hash's. */
interface Sought {
  readonly family: EditorFamily;
  /** Points a side (8 for draughts). */
  readonly size: number;
  /**
   * A row a string, from the top (draughts: from rank 8), one character a point or square. Go: `.`
   * empty, `X` black, `O` white; draughts: `.` empty (and every light square), `w` white man, `W`
   * white king, `b` black man, `B` black king.
   */
  readonly rows: readonly string[];
  readonly turn: Turn;
  readonly symmetry: SymmetryMode;
  /** Go: the rank range of the games ('' for an open end). */
  readonly rankMin: string;
  readonly rankMax: string;
}

const PAGE = 20;
/** The opening dictionary's depth and the fewest games a move in it has. */
const TREE_DEPTH = 10;
const TREE_MIN_GAMES = 2;
const GO_SIZES = [9, 13, 19];
const DRAUGHTS_SIZE = 8;
const NEXT_GO: Record<string, string> = { '.': 'X', X: 'O', O: '.' };
const NEXT_DRAUGHTS: Record<string, string> = { '.': 'w', w: 'W', W: 'b', b: 'B', B: '.' };
const GO_NAMES: Record<string, string> = { '.': 'empty', X: 'black', O: 'white' };
const DRAUGHTS_NAMES: Record<string, string> = { '.': 'empty', w: 'white man', W: 'white king', b: 'black man', B: 'black king' };
const FILES = 'abcdefgh';
const FAMILY_NAMES: Record<EditorFamily, string> = { go: 'Go', checkers: 'Russian draughts' };
const SYMMETRIES: Record<SymmetryMode, string> = { all: 'found too', none: 'only as it stands' };

const isDark = (x: number, y: number) => (x + y) % 2 === 1;
const emptyRows = (size: number) => Array.from({ length: size }, () => '.'.repeat(size));

/** The board a game starts from: an empty Go board; draughts' twelve men a side on the dark squares of the three rows nearest each player. */
function startRows(family: EditorFamily, size: number): string[] {
  if (family === 'go') return emptyRows(size);
  return Array.from({ length: DRAUGHTS_SIZE }, (_, y) =>
    Array.from({ length: DRAUGHTS_SIZE }, (_, x) => (!isDark(x, y) ? '.' : y < 3 ? 'b' : y >= DRAUGHTS_SIZE - 3 ? 'w' : '.')).join(''),
  );
}

const startTurn = (family: EditorFamily): Turn => (family === 'go' ? 'B' : 'W');

function soughtOf(params: URLSearchParams): Sought {
  const family: EditorFamily = params.get('family') === 'checkers' ? 'checkers' : 'go';
  const asked = Number(params.get('size'));
  const size = family === 'checkers' ? DRAUGHTS_SIZE : Number.isInteger(asked) && asked >= 2 && asked <= 25 ? asked : 19;
  const rows = (params.get('board') ?? '').split('/');
  const cells = family === 'go' ? /^[.XO]+$/ : /^[.wWbB]+$/;
  const written = rows.length === size && rows.every((row) => row.length === size && cells.test(row));
  const turn = params.get('turn');
  return {
    family,
    size,
    rows: written ? rows : family === 'go' ? emptyRows(size) : startRows(family, size),
    turn: turn === 'B' || turn === 'W' ? turn : startTurn(family),
    symmetry: params.get('symmetry') === 'none' ? 'none' : 'all',
    ...(family === 'go' ? rankRangeOf(params) : { rankMin: '', rankMax: '' }),
  };
}

export function positionsHash(sought: Sought): string {
  const query = new URLSearchParams({ family: sought.family, size: String(sought.size), board: sought.rows.join('/'), turn: sought.turn, symmetry: sought.symmetry, ...rankQuery(sought) });
  return `#/positions?${query}`;
}

/** Go: one SGF node with the stones set up and the side to move, `(;SZ[9]AB[cc]AW[gc]PL[W])`. */
export function sgfOf(sought: Sought): string {
  const points = (cell: string) => sought.rows.flatMap((row, y) => [...row].flatMap((c, x) => (c === cell ? [`[${sgfPoint(x, y)}]`] : []))).join('');
  const [black, white] = [points('X'), points('O')];
  return `(;SZ[${sought.size}]${black ? `AB${black}` : ''}${white ? `AW${white}` : ''}PL[${sought.turn}])`;
}

/** Draughts: a PDN FEN with squares by name, `W:Wc3,e3,Kd8:Bf6,h8`. */
export function fenOf(sought: Sought): string {
  const side = (man: string, king: string) =>
    sought.rows.flatMap((row, y) => [...row].flatMap((c, x) => (c === man ? [squareName(x, y)] : c === king ? [`K${squareName(x, y)}`] : []))).join(',');
  return `${sought.turn}:W${side('w', 'W')}:B${side('b', 'B')}`;
}

/** `c3`: the file's letter, the rank counted from white's side. */
const squareName = (x: number, y: number) => `${FILES[x]}${DRAUGHTS_SIZE - y}`;

function bodyOf(sought: Sought): BoardPositionBody {
  const written = sought.family === 'go' ? { sgf: sgfOf(sought) } : { fen: fenOf(sought) };
  return { family: sought.family, ...written, symmetry: sought.symmetry, ...rankQuery(sought) };
}

export function PositionsPage({ query: params }: { query: URLSearchParams }) {
  const key = params.has('board') ? positionsHash(soughtOf(params)) : null;
  const [draft, setDraft] = useState<Sought>(() => soughtOf(params));
  const paged = usePagedSearch<PositionGameDto, PositionGamesPageDto & { moves?: ExplorerDto; history?: PositionHistoryDto | null }>(
    key,
    async () => {
      const body = bodyOf(soughtOf(params));
      const [explored, found, dated] = await Promise.all([exploreBoard({ body: { ...body, by: 'year' } }), gamesThroughBoard({ body: { ...body, limit: PAGE } }), boardHistory({ body })]);
      // Both answers refuse a board alike: either says why.
      if (!found.data) return found;
      if (!explored.data) return { error: explored.error, response: explored.response };
      return { data: { ...found.data, moves: explored.data, history: dated.data ?? null } };
    },
    // The cursor carries the position and the filters: it goes with the family alone.
    (cursor) => gamesThroughBoard({ body: { family: soughtOf(params).family, cursor, limit: PAGE } }),
  );
  const { items, loading, error } = paged;
  const moves = paged.answer?.moves?.moves ?? [];
  const history = paged.answer?.history ?? null;
  const total = paged.answer?.total ?? 0;
  const [treeError, setTreeError] = useState('');
  // The dictionary is asked by POST (the board goes in the body): fetched, with the token if one is held, and saved.
  const downloadTree = async () => {
    const sought = soughtOf(params);
    setTreeError('');
    const { data, error, response } = await boardTree({ body: { ...bodyOf(sought), depth: TREE_DEPTH, minGames: TREE_MIN_GAMES }, parseAs: 'blob' });
    const file: unknown = data;
    if (!(file instanceof Blob)) return setTreeError(problemText(error, response));
    saveBlob(file, attachmentName(response.headers.get('content-disposition')) ?? (sought.family === 'go' ? 'tree.sgf' : 'tree.pdn'));
  };

  // The hash names a board: the editor shows it (and it is searched).
  useFormFollowsSearch(key, () => setDraft(soughtOf(params)));

  const set = (change: Partial<Sought>) => setDraft((before) => ({ ...before, ...change }));
  const chooseFamily = (family: EditorFamily) => {
    const size = family === 'go' ? 19 : DRAUGHTS_SIZE;
    set({ family, size, rows: startRows(family, size), turn: startTurn(family), ...(family === 'go' ? {} : { rankMin: '', rankMax: '' }) });
  };
  const cycle = (x: number, y: number) => {
    const next = draft.family === 'go' ? NEXT_GO : NEXT_DRAUGHTS;
    set({ rows: draft.rows.map((row, i) => (i === y ? row.slice(0, x) + next[row[x]] + row.slice(x + 1) : row)) });
  };
  const submit = (event: Event) => {
    event.preventDefault();
    location.hash = positionsHash(draft);
  };
  const sizes = GO_SIZES.includes(draft.size) ? GO_SIZES : [...GO_SIZES, draft.size].sort((a, b) => a - b);

  return (
    <>
      <h1>Positions</h1>
      <div class="position-layout">
        <form class="position-form" role="search" aria-label="Position" onSubmit={submit}>
          <div class="filters">
            <Choice label="Game" name="family" value={draft.family} choices={FAMILY_NAMES} onChoose={chooseFamily} />
            {draft.family === 'go' && (
              <Choice label="Board" name="size" value={String(draft.size)} choices={Object.fromEntries(sizes.map((size) => [size, `${size}×${size}`]))} onChoose={(size) => set({ size: Number(size), rows: emptyRows(Number(size)) })} />
            )}
            <Choice label="To move" name="turn" value={draft.turn} choices={draft.family === 'go' ? { B: 'Black', W: 'White' } : { W: 'White', B: 'Black' }} onChoose={(turn) => set({ turn })} />
            <Choice label="Turned boards" name="symmetry" value={draft.symmetry} choices={SYMMETRIES} onChoose={(symmetry) => set({ symmetry })} />
            {draft.family === 'go' && <RankSelect range={draft} onChange={(range) => set(range)} />}
          </div>
          <p class="muted">
            {draft.family === 'go'
              ? 'Click a point to put a black stone on it, again for white, a third time to empty it.'
              : 'Click a dark square for a white man, again for a white king, then a black man, a black king, and empty again. White plays up the board.'}
          </p>
          {draft.family === 'go' ? <GoEditor sought={draft} onCycle={cycle} /> : <DraughtsEditor sought={draft} onCycle={cycle} />}
          <p class="pattern-rows">
            As the API takes it: <code>{draft.family === 'go' ? sgfOf(draft) : fenOf(draft)}</code>
          </p>
          <div class="actions">
            <button type="submit">Search</button>
            <button type="button" onClick={() => set({ rows: emptyRows(draft.size) })}>
              Clear
            </button>
            <button type="button" onClick={() => set({ rows: startRows(draft.family, draft.size), turn: startTurn(draft.family) })}>
              Start position
            </button>
          </div>
        </form>

        <div class="position-found">
          <PagedResults id="position-results" search={key} heading={loading ? 'Searching…' : error ? 'Games' : `${total} ${total === 1 ? 'game reaches' : 'games reach'} the position`} paged={paged}>
            {!loading && moves.length > 0 && (
              <>
                <h3>Played next</h3>
                <ExplorerMoves moves={moves} href={(move) => `#/games/${move.game}`} written />
              </>
            )}
            {!loading && history && total > 0 && <YearChart history={history} moves={moves} />}
            {!loading && key !== null && total > 0 && (
              <p>
                <button type="button" class="link" onClick={downloadTree}>
                  Download as {soughtOf(params).family === 'go' ? 'SGF' : 'PDN'} dictionary
                </button>{' '}
                <span class="muted">
                  (the moves played from here in {TREE_MIN_GAMES} games or more, {TREE_DEPTH} plies deep)
                </span>
              </p>
            )}
            {treeError && (
              <p class="problem" role="alert">
                {treeError}
              </p>
            )}
            {!loading && total > 0 && <h3>Games with the position</h3>}
            <ul class="results position-results">
              {items.map((game) => (
                <GameItem game={game} at={{ ply: game.ply, note: `at ply ${game.ply}${game.transform === 'identity' ? '' : ` (${game.transform})`}` }} />
              ))}
            </ul>
          </PagedResults>
        </div>
      </div>
    </>
  );
}

function GoEditor({ sought, onCycle }: { sought: Sought; onCycle: (x: number, y: number) => void }) {
  const { size, rows } = sought;
  const points = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const cell = rows[y][x];
      points.push(
        <button type="button" class={`pt${edgeClasses(x, y, size, size)}`} data-x={x} data-y={y} aria-label={`${goPointName(x, y, size)}: ${GO_NAMES[cell]}`} onClick={() => onCycle(x, y)}>
          {cell === 'X' || cell === 'O' ? <Stone cell={cell} /> : null}
        </button>,
      );
    }
  }
  return (
    <GridBoard kind="position-board go" width={size} height={size} label={`The position on a ${size}×${size} board`}>
      {points}
    </GridBoard>
  );
}

function DraughtsEditor({ sought, onCycle }: { sought: Sought; onCycle: (x: number, y: number) => void }) {
  const squares = [];
  for (let y = 0; y < DRAUGHTS_SIZE; y++) {
    for (let x = 0; x < DRAUGHTS_SIZE; x++) {
      if (!isDark(x, y)) {
        squares.push(<span class="sq light" />);
        continue;
      }
      const cell = sought.rows[y][x];
      squares.push(
        <button type="button" class="sq dark" data-x={x} data-y={y} aria-label={`${squareName(x, y)}: ${DRAUGHTS_NAMES[cell]}`} onClick={() => onCycle(x, y)}>
          {cell !== '.' && <span class={`pc ${cell.toLowerCase()}`}>{cell === 'W' || cell === 'B' ? '♛' : ''}</span>}
        </button>,
      );
    }
  }
  return (
    <GridBoard kind="position-board draughts" width={DRAUGHTS_SIZE} height={DRAUGHTS_SIZE} label="The position on the draughts board">
      {squares}
    </GridBoard>
  );
}

/**
 * The editor's link for a game's board after `ply`, from what its page has (the replay's plies and
 * the game's details); null for a board the editor does not draw (Dots, peg solitaire, a Go board
 * that is not square).
 */
export function positionsHashOfGame(game: GameDto, plies: readonly PlyDto[], ply: number): string | null {
  const shown = plies.slice(0, ply);
  if (game.family === 'go') {
    const size = game.facts?.boardWidth ?? 19;
    if (game.facts?.boardHeight !== size || size > 25) return null;
    const cells = Array.from({ length: size }, () => Array.from({ length: size }, () => '.'));
    const put = (x: number | null | undefined, y: number | null | undefined, cell: string) => {
      if (typeof x === 'number' && typeof y === 'number' && x >= 0 && y >= 0 && x < size && y < size) cells[y][x] = cell;
    };
    // Handicap and other stones set up before the first move (the SGF reader gives them as x/y).
    const setup = (game.details?.setupPoints ?? {}) as { black?: { x: number; y: number }[]; white?: { x: number; y: number }[] };
    for (const point of setup.black ?? []) put(point.x, point.y, 'X');
    for (const point of setup.white ?? []) put(point.x, point.y, 'O');
    for (const p of shown) {
      const details = (p.details ?? {}) as { color?: string | null; x?: number | null; y?: number | null; removes?: { x: number; y: number }[]; setup?: { x: number; y: number; cell: string }[] };
      for (const point of details.setup ?? []) put(point.x, point.y, point.cell === 'black' ? 'X' : point.cell === 'white' ? 'O' : '.');
      put(details.x, details.y, details.color === 'white' ? 'O' : 'X');
      for (const point of details.removes ?? []) put(point.x, point.y, '.');
    }
    // The side to move: the colour of the next move, else the other colour than the last one's (black on an empty line).
    const colourOf = (p: PlyDto | undefined) => (p?.details as { color?: string | null } | undefined)?.color;
    const following = colourOf(plies[ply]);
    const last = colourOf(plies[ply - 1]);
    const turn: Turn = following === 'white' || following === 'black' ? (following === 'white' ? 'W' : 'B') : last === 'black' ? 'W' : 'B';
    return positionsHash({ family: 'go', size, rows: cells.map((row) => row.join('')), turn, symmetry: 'all', rankMin: '', rankMax: '' });
  }
  if (game.family === 'checkers') {
    type Placed = { position?: number[][]; from?: { x: number; y: number }; to?: { x: number; y: number } };
    const board = ply > 0 ? (shown[ply - 1]?.details as Placed | undefined)?.position : (game.details?.startPosition as number[][] | undefined);
    if (!Array.isArray(board) || board.length !== DRAUGHTS_SIZE) return null;
    const PIECES: Record<number, string> = { 1: 'w', 2: 'b', 11: 'W', 12: 'B' };
    const rows = board.map((row, y) => row.map((code, x) => (isDark(x, y) ? PIECES[code] ?? '.' : '.')).join(''));
    // The side to move: the other colour than the piece the last move left on its square, or the colour of the piece the next move takes from its.
    const lastTo = ply > 0 ? (shown[ply - 1].details as Placed).to : undefined;
    const nextFrom = ply === 0 ? (plies[0]?.details as Placed | undefined)?.from : undefined;
    const moved = lastTo ? rows[lastTo.y]?.[lastTo.x] : undefined;
    const moving = nextFrom ? rows[nextFrom.y]?.[nextFrom.x] : undefined;
    const turn: Turn = moved ? (moved.toLowerCase() === 'w' ? 'B' : 'W') : moving?.toLowerCase() === 'b' ? 'B' : 'W';
    return positionsHash({ family: 'checkers', size: DRAUGHTS_SIZE, rows, turn, symmetry: 'all', rankMin: '', rankMax: '' });
  }
  return null;
}
