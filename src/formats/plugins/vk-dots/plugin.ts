import { FormatError } from '../../../core/errors.js';
import { ReadLimits, checkBoard, checkLineLengths, pliesExceeded } from '../../../core/limits.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, InterchangeGame, MainLine, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { asDotsGame } from '../../families/dots/index.js';
import { dotsLine } from '../../families/lines.js';
import { decodeUtf8, isUtf8, locate } from '../../text/decode.js';
import { analyse } from './analysis.js';
import { CodeToken, firstDotPast, parseGameCode } from './read.js';
import { interchangeToVk, vkToInterchange } from './interchange.js';
import { LARGEST_CODED_SIDE } from './notation.js';
import { replayGameCode, VkReplay } from './replay.js';
import { looksLikeBareCode, looksLikeDigitsCode, looksLikeSaveFile, readSource, splitLines, VkSource } from './model.js';

const PUBLISHER = 'VK Dots';

export const VK_SAVE_FORMAT: FormatDescriptor = {
  publisher: PUBLISHER,
  version: '1.0',
  family: 'dots',
  title: 'VK Dots (Точки ВКонтакте) saved game: version, players, flags and game code',
  mediaTypes: ['text/plain'],
  extensions: ['.txt'],
};

/** A bare game code has no version line; the archive files it under version `code`. */
export const VK_CODE_FORMAT: FormatDescriptor = {
  publisher: PUBLISHER,
  version: 'code',
  family: 'dots',
  title: 'VK Dots game code, as the app copies it to the clipboard',
  mediaTypes: ['text/plain'],
  extensions: ['.txt'],
};

/**
 * The field the archive replays VK games on. The app's small/medium/big sizes are not known, so
 * every game is replayed on the largest field its code can address (35x35); see
 * docs/formats/vk-dots.md.
 */
const REPLAY_FIELD = { width: LARGEST_CODED_SIDE, height: LARGEST_CODED_SIDE };

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

export const vkDotsPlugin: FormatPlugin = {
  id: 'vk-dots',
  formats: [VK_SAVE_FORMAT, VK_CODE_FORMAT],

  detect(file: UploadedFile): boolean {
    if (file.bytes.length > 1_000_000 || !isUtf8(file.bytes)) return false;
    const lines = splitLines(decodeUtf8(file.bytes));
    return looksLikeSaveFile(lines) || looksLikeBareCode(lines);
  },

  /** A bare code of decimal digits alone (two moves or more), when no format claims the file. */
  detectFallback(file: UploadedFile): boolean {
    if (file.bytes.length > 1_000_000 || !isUtf8(file.bytes)) return false;
    return looksLikeDigitsCode(splitLines(decodeUtf8(file.bytes)));
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const { source, tokens, replay } = replayUpload(file, options);
    return {
      publisher: PUBLISHER,
      version: source.kind === 'save' ? VK_SAVE_FORMAT.version : VK_CODE_FORMAT.version,
      header: source.kind === 'save' ? source.header : null,
      body: source.code,
      family: 'dots',
      analysis: analyse(source, tokens, replay, REPLAY_FIELD),
    };
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const { source, replay } = replayUpload(file, options);
    const text = source.text.slice(0, source.codeOffset) + replay.code + source.text.slice(source.codeOffset + source.code.length);
    const hasBom = file.bytes.subarray(0, 3).equals(UTF8_BOM);
    return {
      publisher: PUBLISHER,
      version: source.kind === 'save' ? VK_SAVE_FORMAT.version : VK_CODE_FORMAT.version,
      mediaType: 'text/plain; charset=utf-8',
      filename: 'game.regenerated.txt',
      content: Buffer.concat([hasBom ? UTF8_BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]),
    };
  },

  async toInterchange(file: UploadedFile, options: ReadOptions) {
    const { source, tokens, replay } = replayUpload(file, options);
    return vkToInterchange(source, tokens, replay);
  },

  /**
   * The family's positions of the plain model, numbered as this replay numbers plies: a cross start,
   * which the model reads back as setup, is the code's first four dots, so plies 1 to 4 here.
   */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    const { source, tokens, replay } = replayUpload(file, options);
    return dotsLine(vkToInterchange(source, tokens, replay), { setupPlies: true });
  },

  async fromInterchange(game: InterchangeGame, options: ReadOptions & { readonly format: FormatDescriptor }): Promise<RegeneratedFile> {
    const format = options.format.version === VK_SAVE_FORMAT.version ? VK_SAVE_FORMAT : VK_CODE_FORMAT;
    const { text } = interchangeToVk(asDotsGame(game, format), format, format === VK_SAVE_FORMAT);
    return { publisher: PUBLISHER, version: format.version, mediaType: 'text/plain; charset=utf-8', filename: 'game.txt', content: Buffer.from(text, 'utf8') };
  },
};

function parse(source: VkSource, limits: ReadLimits): CodeToken[] {
  return parseGameCode(source.code, source.codeOffset, (offset) => locate(source.text, offset), limits);
}

/**
 * The bounds, before anything is built from the text: the code's dots are counted first (a scan
 * that stops at the bound, so a code of a million dots is refused at dot MAX_PLIES + 1, not read),
 * then every line's length, then the replay field's side. Returns the lines, for {@link readSource}.
 */
function checkBounds(text: string, limits: ReadLimits): ReturnType<typeof splitLines> {
  const lines = splitLines(text);
  const codeLine = lines.length === 1 ? lines[0] : lines.length === 5 ? lines[4] : undefined;
  if (codeLine) {
    const past = firstDotPast(codeLine.text, limits.maxPlies);
    if (past >= 0) throw pliesExceeded(limits, locate(text, codeLine.offset + past));
  }
  checkLineLengths(text, limits);
  checkBoard(limits, REPLAY_FIELD.width, REPLAY_FIELD.height);
  return lines;
}

function replayUpload(file: UploadedFile, options: ReadOptions): { source: VkSource; tokens: CodeToken[]; replay: VkReplay } {
  const text = decodeUtf8(file.bytes);
  const source = readSource(text, checkBounds(text, options.limits));
  const named = options.format?.version;
  if (named === VK_SAVE_FORMAT.version && source.kind !== 'save') {
    throw new FormatError('named format VK Dots/1.0 is a 5-line save file, but the upload is a single line (use VK Dots/code)');
  }
  if (named === VK_CODE_FORMAT.version && source.kind !== 'code') {
    throw new FormatError('named format VK Dots/code is a bare game code, but the upload has several lines (use VK Dots/1.0)');
  }
  const extraMove = source.kind === 'save' ? source.flags.extraMove : false;
  const tokens = parse(source, options.limits);
  return { source, tokens, replay: replayGameCode(tokens, { ...REPLAY_FIELD, extraMove }) };
}
