import { FormatError } from '../../../core/errors.js';
import { replayGoGame } from '../../families/go/index.js';
import type { GoGameReplay, GoInterchangeGame } from '../../families/go/index.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, GameSlice, InterchangeGame, MainLine, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { SgfCollection, findProperty, parseSgf, peekRoot, splitSgf } from '../../syntaxes/sgf/index.js';
import { analyseSgfGo } from './analysis.js';
import { buildGame, unreplayable } from './model.js';
import type { SgfGoGame, SgfGoMove } from './model.js';
import { sgfFromInterchange, sgfLine, sgfToInterchange } from './interchange.js';
import { writeSgfGo } from './regenerate.js';

const MEDIA_TYPE = 'application/x-go-sgf';

export const SGF_GO_FORMAT: FormatDescriptor = {
  publisher: 'SGF',
  version: 'FF4-Go',
  family: 'go',
  title: 'Smart Game Format, Go (GM[1]): FF[1] to FF[4], variations, setup stones, any charset CA names',
  mediaTypes: [MEDIA_TYPE, 'application/x-sgf'],
  extensions: ['.sgf'],
};


/**
 * The model `read` built and its replay, by the bytes it read, for `line` (the archive asks for both
 * with the same bytes): the file is not parsed twice, nor its main line played twice.
 */
const lines = new WeakMap<Uint8Array, { readonly game: SgfGoGame; readonly replay: GoGameReplay<SgfGoMove> }>();

/** Text before the first game tree that detection still looks past (notes ahead of a game). */
const MAX_PREAMBLE = 64 * 1024;

/**
 * SGF files whose first game is Go: `GM[1]`, or no `GM` (SGF's default game is Go). `GM[40]` (Dots)
 * and other games are left to their plugins. The first game tree must start within the first
 * 64 KiB, after text that is not XML (does not start with `<`) and has no NUL byte.
 */
export function looksLikeGoSgf(bytes: Uint8Array): boolean {
  const open = bytes.indexOf(0x28);
  if (open < 0 || open > MAX_PREAMBLE) return false;
  const preamble = bytes.subarray(0, open);
  if (preamble.includes(0)) return false;
  const firstChar = Buffer.from(preamble).toString('latin1').replace(/^\u00ef\u00bb\u00bf/, '').trimStart()[0];
  if (firstChar === '<') return false;
  const root = peekRoot(bytes);
  if (root === null) return false;
  const game = root.get('GM');
  return game === undefined || game.trim() === '1';
}

function readCollection(file: UploadedFile, options: ReadOptions): SgfCollection {
  const collection = parseSgf(file.bytes, options.limits);
  const root = collection.trees[0].root;
  const gm = findProperty(root, 'GM')?.values[0];
  if (gm !== undefined && gm.text.trim() !== '1') {
    throw FormatError.at(`SGF: the game is GM[${gm.text}], not Go (GM[1])`, collection.locate(gm.start));
  }
  return collection;
}

export const sgfGoPlugin: FormatPlugin = {
  id: 'sgf-go',
  formats: [SGF_GO_FORMAT],

  detect(file: UploadedFile): boolean {
    try {
      return looksLikeGoSgf(file.bytes);
    } catch {
      return false;
    }
  },

  split(file: UploadedFile, options: ReadOptions): readonly GameSlice[] {
    return splitSgf(file.bytes, options.limits);
  },

  /** The first game tree of the file (a collection's other games are read through split()). */
  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const collection = readCollection(file, options);
    const tree = collection.trees[0];
    const columns = {
      publisher: SGF_GO_FORMAT.publisher,
      version: SGF_GO_FORMAT.version,
      header: collection.text(tree.root.start, tree.root.end),
      body: collection.text(tree.root.end, tree.end - 1),
    };
    const reason = unreplayable(tree);
    if (reason !== null) return { ...columns, family: 'go', notIndexedReason: `${reason}: stored verbatim, not indexed` };
    const game = buildGame(collection, tree, options.limits);
    const replay = replayGoGame(game.width, game.roots, game.initial ?? undefined);
    const analysis = analyseSgfGo(collection, game, replay, options.withReplay !== false);
    // The main line from the model already built, should the archive ask for it (line), instead of reading the file again.
    lines.set(file.bytes, { game, replay });
    return { ...columns, family: 'go', analysis };
  },

  /** The main line of the game `read` has just read (else read again): its first tree's. */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    const read = lines.get(file.bytes);
    lines.delete(file.bytes);
    if (read !== undefined) return sgfLine(read.game, read.replay);
    const collection = readCollection(file, options);
    const tree = collection.trees[0];
    if (unreplayable(tree) !== null) return null;
    return sgfLine(buildGame(collection, tree, options.limits));
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const collection = readCollection(file, options);
    const tree = collection.trees[0];
    const reason = unreplayable(tree);
    if (reason !== null) throw new FormatError(`the archive cannot regenerate this game: ${reason}`);
    const game = buildGame(collection, tree, options.limits);
    return {
      publisher: SGF_GO_FORMAT.publisher,
      version: SGF_GO_FORMAT.version,
      mediaType: MEDIA_TYPE,
      filename: `${baseName(file.filename)}.regenerated.sgf`,
      content: Buffer.from(writeSgfGo(game), 'utf8'),
    };
  },

  /** The first game tree of the file, on a board of any size (the writer of the other format decides what fits). */
  async toInterchange(file: UploadedFile, options: ReadOptions): Promise<GoInterchangeGame> {
    const collection = readCollection(file, options);
    return sgfToInterchange(buildGame(collection, collection.trees[0], options.limits));
  },

  async fromInterchange(game: InterchangeGame, options: ReadOptions & { readonly format: FormatDescriptor }): Promise<RegeneratedFile> {
    const { publisher, version } = options.format;
    if (game.family !== 'go' || publisher !== SGF_GO_FORMAT.publisher || version !== SGF_GO_FORMAT.version) {
      throw new FormatError(`the SGF Go plugin cannot write a ${game.family} game as ${publisher}/${version}`, [], 422, 'export.unsupported');
    }
    return {
      publisher: SGF_GO_FORMAT.publisher,
      version: SGF_GO_FORMAT.version,
      mediaType: MEDIA_TYPE,
      filename: 'game.sgf',
      content: Buffer.from(sgfFromInterchange(game as GoInterchangeGame), 'utf8'),
    };
  },
};

function baseName(filename: string | undefined): string {
  const name = (filename ?? '').replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '');
  return name.length > 0 ? name : 'game';
}
