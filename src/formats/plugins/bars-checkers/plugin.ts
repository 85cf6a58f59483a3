import type { FormatDescriptor, FormatPlugin, GameRecord, InterchangeGame, MainLine, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { interchangeLine } from '../../families/lines.js';
import { CheckersInterchange, checkersGameFor, convertedFile } from '../../families/checkers/interchange.js';
import { decodeUtf8 } from '../../text/decode.js';
import { looksLikeBars } from './detect.js';
import { barsToInterchange, writeBarsGame } from './interchange.js';
import { readBarsRecord } from './model.js';
import { regenerateBarsText } from './regenerate.js';
import { replayBars } from './replay.js';

export const BARS_FORMAT: FormatDescriptor = {
  publisher: 'BARS',
  version: '1',
  family: 'checkers',
  title: 'BARS Russian checkers record (area_monitor board and go moves)',
  mediaTypes: ['text/plain', 'application/json'],
  extensions: ['.bars', '.txt', '.json'],
};

/**
 * BARS: a Russian checkers program's record of a game, `go` (the moves as numbers abcyx) and an
 * optional `area_monitor` (the starting board). Header = the area_monitor text, Body = the go text.
 */
export const barsCheckersPlugin: FormatPlugin = {
  id: 'bars-checkers',
  formats: [BARS_FORMAT],

  detect(file: UploadedFile): boolean {
    return looksLikeBars(file);
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const record = readBarsRecord(decodeUtf8(file.bytes), options.limits);
    const { analysis } = replayBars(record);
    return {
      publisher: BARS_FORMAT.publisher,
      version: BARS_FORMAT.version,
      header: record.headerText,
      body: record.bodyText,
      family: 'checkers',
      analysis,
    };
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const text = decodeUtf8(file.bytes);
    const record = readBarsRecord(text, options.limits);
    const { regenerated } = replayBars(record);
    const json = record.form === 'json';
    const base = (file.filename ?? 'game').replace(/\.[^./\\]*$/, '') || 'game';
    return {
      publisher: BARS_FORMAT.publisher,
      version: BARS_FORMAT.version,
      mediaType: json ? 'application/json' : 'text/plain; charset=utf-8',
      filename: `${base}.regenerated.${json ? 'json' : 'bars'}`,
      content: regenerateBarsText(text, record, regenerated),
    };
  },

  /** The main line: the game's plain model (read again from the bytes). */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    return interchangeLine(await barsCheckersPlugin.toInterchange!(file, options));
  },

  async toInterchange(file: UploadedFile, options: ReadOptions): Promise<CheckersInterchange> {
    return barsToInterchange(decodeUtf8(file.bytes), options.limits);
  },

  async fromInterchange(game: InterchangeGame, options: ReadOptions & { readonly format: FormatDescriptor }): Promise<RegeneratedFile> {
    return convertedFile(BARS_FORMAT, '.bars', writeBarsGame(checkersGameFor(game, options.format, BARS_FORMAT)));
  },
};
