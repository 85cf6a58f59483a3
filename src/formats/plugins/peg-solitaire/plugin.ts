import { census } from '../../../rules/peg-solitaire/board.js';
import type { Board } from '../../../rules/peg-solitaire/board.js';
import { playJumps } from '../../../rules/peg-solitaire/play.js';
import { solve } from '../../../rules/peg-solitaire/solver.js';
import type { SolveResult } from '../../../rules/peg-solitaire/solver.js';
import { FormatError } from '../../../core/errors.js';
import { DEFAULT_LIMITS, ReadLimits } from '../../../core/limits.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, JsonValue, MainLine, ReadOptions, RegeneratedFile, ReplayPly, UploadedFile } from '../../plugin.js';
import { decodeUtf8 } from '../../text/decode.js';
import { sniffVersion } from './detect.js';
import { pegReplayPly } from '../../families/peg-solitaire/plies.js';
import { pegSlotBox } from '../../families/peg-solitaire/positions.js';
import { pegLine } from '../../families/lines.js';
import { parseV1 } from './read-v1.js';
import { parseV2 } from './read-v2.js';
import type { ParsedBoardFile } from './model.js';
import { writeV2 } from './write-v2.js';

export const PEG_PUBLISHER = 'ViaThinkSoft Peg Solitaire';

export const PEG_V1: FormatDescriptor = {
  publisher: PEG_PUBLISHER,
  version: '1',
  family: 'peg-solitaire',
  title: 'ViaThinkSoft Peg Solitaire board, format version 1 (2009)',
  mediaTypes: ['text/plain'],
  extensions: ['.brd'],
};

export const PEG_V2: FormatDescriptor = {
  publisher: PEG_PUBLISHER,
  version: '2',
  family: 'peg-solitaire',
  title: 'ViaThinkSoft Peg Solitaire board, format version 2 (2018)',
  mediaTypes: ['text/plain'],
  extensions: ['.brd'],
};

/**
 * Reads a board file of either version; throws a {@link FormatError} (422) with line and column.
 * Line lengths and the board's width and height are bounded by `limits` (the plugin passes the
 * archive's; benchmarks and tools may rely on the defaults).
 */
export function readBoardFile(file: UploadedFile, format?: FormatDescriptor, limits: ReadLimits = DEFAULT_LIMITS): ParsedBoardFile {
  const version = format ? Number(format.version) : sniffVersion(file.bytes);
  if (version !== 1 && version !== 2) {
    throw new FormatError('not a ViaThinkSoft peg solitaire board: the file starts with neither "1N~"/"1D~" nor "version 2"', [], 415);
  }
  const text = decodeUtf8(file.bytes);
  return version === 1 ? parseV1(text, limits) : parseV2(text, limits);
}

/**
 * ViaThinkSoft Peg Solitaire boards (`Boards\*.brd`), versions 1 and 2. A board is a puzzle, not a game
 * record: the analysis is the solver's — whether the board can be solved within the time budget and,
 * if so, one solution as the replay.
 */
export const pegSolitairePlugin: FormatPlugin = {
  id: 'peg-solitaire',
  formats: [PEG_V1, PEG_V2],

  detect(file: UploadedFile): boolean {
    return sniffVersion(file.bytes) !== null;
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const parsed = readBoardFile(file, options.format, options.limits);
    const { board } = parsed;
    const counts = census(board);
    const outcome = solve(board, { timeBudgetMs: options.timeBudgetMs });
    solved.set(file.bytes, outcome);
    const played = playJumps(board, outcome.solvable === 'yes' ? outcome.solution : []);
    const replay: ReplayPly[] = played.jumps.map(pegReplayPly);
    const details: Record<string, JsonValue> = {
      formatVersion: parsed.formatVersion,
      mode: board.mode,
      width: board.width,
      height: board.height,
      slots: counts.slots,
      stones: { ...counts.stones },
      stoneCount: counts.stoneCount,
      stoneValue: counts.stoneValue,
      targets: counts.targets,
      // The slots' bounding box: position searches name jumps in its coordinates.
      slotBox: pegSlotBox(board),
      solvable: outcome.solvable,
    };
    if (outcome.solvable === 'no') details.unsolvableBecause = outcome.reason;
    if (outcome.solvable === 'yes') {
      details.solutionPoints = played.points;
      details.targetBonus = played.bonus;
    }
    if (parsed.dotReading) details.dotReading = parsed.dotReading;
    if (board.width * board.height <= LAYOUT_MAX_CELLS) details.layout = layoutRows(board);
    return {
      publisher: PEG_PUBLISHER,
      version: String(parsed.formatVersion),
      header: parsed.header,
      body: parsed.body,
      family: 'peg-solitaire',
      analysis: {
        players: [],
        moveCount: replay.length,
        result: outcome.solvable === 'yes' ? 'solvable' : outcome.solvable === 'no' ? 'unsolvable' : null,
        // A board has no moves of its own and no cached values: nothing in it can be illegal or stale.
        verdict: { legal: true, consistent: true, problems: [] },
        // The matrix as parsed (every cell, locked ones included); a board records no date or event,
        // and its move mode (normal/diagonal) stays in details.mode rather than being called rules.
        facts: { boardWidth: board.width, boardHeight: board.height, datePlayed: null, event: null, rules: null },
        details,
        replay,
      },
    };
  },

  /**
   * The board and the jumps of the solution the replay shows (the one `read` found for the same
   * bytes when it has just read them, else solved again): the main line.
   */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    const { board } = readBoardFile(file, options.format, options.limits);
    const outcome = solved.get(file.bytes) ?? solve(board, { timeBudgetMs: options.timeBudgetMs });
    solved.delete(file.bytes);
    return pegLine(board, outcome.solvable === 'yes' ? outcome.solution : []);
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const parsed = readBoardFile(file, options.format, options.limits);
    const stem = file.filename?.replace(/\.[^./\\]*$/, '').replace(/^.*[\\/]/, '') || 'board';
    return {
      publisher: PEG_PUBLISHER,
      version: '2',
      mediaType: 'text/plain; charset=utf-8',
      filename: `${stem}.regenerated.brd`,
      content: writeV2(parsed.board),
    };
  },
};

/**
 * The solver's answer for the bytes `read` has just read, for `line` (the archive asks for both
 * with the same bytes): a solution found under a time budget is not solved twice, and the positions
 * follow the very jumps the stored analysis shows.
 */
const solved = new WeakMap<Uint8Array, SolveResult>();

/** Boards up to this many cells carry their starting layout in the details (a viewer draws from it). */
const LAYOUT_MAX_CELLS = 4096;

/**
 * The starting board, one string per row, one character per cell: space locked, `.` empty slot,
 * `+` empty target, `r`/`y`/`g` a red/yellow/green stone, `R`/`Y`/`G` the same stone on a target.
 */
function layoutRows(board: Board): string[] {
  const rows: string[] = [];
  for (let y = 0; y < board.height; y++) {
    let row = '';
    for (let x = 0; x < board.width; x++) {
      const cell = board.cells[y * board.width + x];
      if (cell.kind === 'locked') row += ' ';
      else if (cell.stone === null) row += cell.target ? '+' : '.';
      else row += cell.target ? cell.stone[0].toUpperCase() : cell.stone[0];
    }
    rows.push(row);
  }
  return rows;
}
