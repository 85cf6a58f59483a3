import { FormatError } from '../../../core/errors.js';
import { ReadLimits, checkBoard, checkLineLengths } from '../../../core/limits.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, GameSlice, InterchangeGame, MainLine, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { CheckersInterchange, checkersGameFor, convertedFile } from '../../families/checkers/interchange.js';
import { decodeUtf8, locate } from '../../text/decode.js';
import { BOARD_SIZE } from '../../../rules/checkers/squares.js';
import { looksLikePdn } from './detect.js';
import { PdnGame, parseGame } from './model.js';
import { pdnToInterchange, writePdnGame } from './interchange.js';
import { Lexer } from '../../syntaxes/pdn/lexer.js';
import { writePdn } from './regenerate.js';
import { replayPdn } from './replay.js';
import { checkersLine } from '../../families/lines.js';
import { gameSetup, otherVariant } from './setup.js';
import { byteSlices, gameSpans } from '../../syntaxes/pdn/split.js';


/** The main line `read` made, by the bytes it read, for `line` (the archive asks for both with the same bytes): the game is not replayed twice. */
const lines = new WeakMap<Uint8Array, MainLine>();

export const PDN_FORMAT: FormatDescriptor = {
  publisher: 'PDN',
  version: '3.0-Russian',
  family: 'checkers',
  title: 'Portable Draughts Notation 3.0, Russian draughts (GameType 25)',
  mediaTypes: ['text/plain', 'application/x-pdn'],
  extensions: ['.pdn'],
};

/**
 * PDN: tag pairs and move text of draughts games, many to a file. The archive splits a file into
 * its games ({@link split}) and reads each one; Header = the tag section as written, Body = the move
 * text up to and with its terminator.
 */
export const pdnDraughtsPlugin: FormatPlugin = {
  id: 'pdn-draughts',
  formats: [PDN_FORMAT],

  detect(file: UploadedFile): boolean {
    return looksLikePdn(file);
  },

  split(file: UploadedFile, options: ReadOptions): readonly GameSlice[] {
    const text = decodeUtf8(file.bytes);
    checkLineLengths(text, options.limits);
    const spans = gameSpans(text);
    if (spans.length === 0) throw FormatError.at('the file holds no PDN game (no tag pair and no move text)', locate(text, 0));
    return byteSlices(text, spans, file.bytes[0] === 0xef && file.bytes[1] === 0xbb && file.bytes[2] === 0xbf);
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const { text, game } = readOneGame(file, options.limits);
    const header = game.header ? text.slice(game.header.start, game.header.end) : null;
    const body = game.body ? text.slice(game.body.start, game.body.end) : null;
    const notIndexedReason = otherVariant(game);
    if (notIndexedReason !== null) return { publisher: null, version: null, header, body, family: null, notIndexedReason };
    const setup = gameSetup(game, text);
    const { analysis, resolved } = replayPdn(game, setup, text);
    // The main line from the replay already made, should the archive ask for it (line): the moves
    // the replay accepted, up to the first it did not (a game the conversions refuse for a bad move
    // still has the positions before it).
    const moves = [];
    for (const node of game.main.moves) {
      const move = resolved.get(node);
      if (move === undefined) break;
      moves.push(move);
    }
    lines.set(file.bytes, checkersLine(setup.start, moves));
    return { publisher: PDN_FORMAT.publisher, version: PDN_FORMAT.version, header, body, family: 'checkers' as const, analysis };
  },

  /** The main line of the game `read` has just read (else read again). */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    const kept = lines.get(file.bytes);
    lines.delete(file.bytes);
    if (kept !== undefined) return kept;
    await this.read(file, { ...options, withReplay: false });
    const line = lines.get(file.bytes) ?? null;
    lines.delete(file.bytes);
    return line;
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const { text, game } = readOneGame(file, options.limits);
    const why = otherVariant(game);
    if (why !== null) throw FormatError.at(`cannot regenerate: ${why}`, locate(text, 0));
    const setup = gameSetup(game, text);
    const { resolved, result } = replayPdn(game, setup, text);
    const base = (file.filename ?? 'game').replace(/\.[^./\\]*$/, '') || 'game';
    return {
      publisher: PDN_FORMAT.publisher,
      version: PDN_FORMAT.version,
      mediaType: 'text/plain; charset=utf-8',
      filename: `${base}.regenerated.pdn`,
      content: writePdn(game, resolved, result, setup.start.toMove),
    };
  },

  async toInterchange(file: UploadedFile, options: ReadOptions): Promise<CheckersInterchange> {
    const { text, game } = readOneGame(file, options.limits);
    return pdnToInterchange(game, text);
  },

  async fromInterchange(game: InterchangeGame, options: ReadOptions & { readonly format: FormatDescriptor }): Promise<RegeneratedFile> {
    return convertedFile(PDN_FORMAT, '.pdn', writePdnGame(checkersGameFor(game, options.format, PDN_FORMAT)));
  },
};

/**
 * Parses the file's one game. A file of several games is refused with their count: the archive
 * reads a collection game by game through {@link pdnDraughtsPlugin.split}.
 */
function readOneGame(file: UploadedFile, limits: ReadLimits): { text: string; game: PdnGame } {
  const text = decodeUtf8(file.bytes);
  checkLineLengths(text, limits);
  checkBoard(limits, BOARD_SIZE, BOARD_SIZE);
  const lexer = new Lexer(text);
  const game = parseGame(lexer, limits);
  if (game.header === null && game.body === null) throw FormatError.at('the file holds no PDN game (no tag pair and no move text)', locate(text, text.length));
  let next = lexer.next();
  while (next?.kind === 'comment') next = lexer.next();
  if (next !== null) {
    const games = gameSpans(text).length;
    throw FormatError.at(
      `the file holds ${games} games; a PDN collection is read game by game (split), and read() takes one game`,
      locate(text, next.offset),
    );
  }
  return { text, game };
}
