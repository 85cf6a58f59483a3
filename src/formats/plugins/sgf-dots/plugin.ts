import { MAX_SIDE } from '../../../rules/dots/index.js';
import { FormatError } from '../../../core/errors.js';
import { checkBoard } from '../../../core/limits.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, GameSlice, InterchangeGame, MainLine, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { interchangeLine } from '../../families/lines.js';
import { asDotsGame, notConvertible } from '../../families/dots/index.js';
import type { DotsInterchangeGame } from '../../families/dots/index.js';
import { interchangeToSgfText, sgfToInterchange } from './interchange.js';
import { parseSgf, peekRootProperty, sgfTexts, splitSgf } from '../../syntaxes/sgf/index.js';
import type { SgfCollection, SgfGameTree, SgfNode } from '../../syntaxes/sgf/index.js';
import { writtenTexts } from '../../families/texts.js';
import { analyse, SideLineReplay } from './analysis.js';
import { sgfChain } from './chains.js';
import { mainLine, sideLines, SgfDotsGame, SgfDotsNode } from './model.js';
import { parseResult, scoreResult, writeMoveValue } from './notation.js';
import { NotReplayable, readDotsGame } from './read.js';
import { replayLine, SgfReplay } from './replay.js';

export const SGF_DOTS_FORMAT: FormatDescriptor = {
  publisher: 'SGF',
  version: 'FF4-Dots',
  family: 'dots',
  title: 'Smart Game Format for Dots (GM[40]), as zagram.org, playdots.ru and the Kropki app write it',
  mediaTypes: ['application/x-go-sgf', 'application/x-sgf'],
  extensions: ['.sgf'],
};

/**
 * Plies replayed for variations, all lines together, as a multiple of MAX_PLIES: each variation
 * is replayed from the start, so a tree with many variations late in a long game costs more than
 * its plies. Past the bound the remaining variations are not replayed (`details.variationsReplayed`).
 */
const SIDE_LINE_WORK = 4;

export const sgfDotsPlugin: FormatPlugin = {
  id: 'sgf-dots',
  formats: [SGF_DOTS_FORMAT],

  detect(file: UploadedFile): boolean {
    try {
      return peekRootProperty(file.bytes, 'GM')?.trim() === '40';
    } catch {
      return false;
    }
  },

  split(file: UploadedFile, options: ReadOptions): readonly GameSlice[] {
    return splitSgf(file.bytes, options.limits).map(({ start, end }) => ({ start, end }));
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const collection = parseSgf(file.bytes, options.limits);
    const tree = firstTree(collection);
    const header = collection.text(tree.root.start, tree.root.end);
    const body = collection.text(tree.root.end, Math.max(tree.root.end, tree.end - 1)).trim();
    const base = { publisher: SGF_DOTS_FORMAT.publisher, version: SGF_DOTS_FORMAT.version, header, body: body === '' ? null : body, family: 'dots' as const };
    const loaded = load(collection, tree, options);
    if (typeof loaded === 'string') return { ...base, notIndexedReason: loaded };
    const { game, main, sides, replayedAll } = loaded;
    const analysis = analyse(game, main, sides, recordsChains(game.rootNode));
    const details = { ...analysis.details, variationsReplayed: replayedAll, gamesInFile: collection.trees.length };
    return { ...base, analysis: { ...analysis, details, texts: writtenTexts(sgfTexts(tree, dotsPliesOf)) } };
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const collection = parseSgf(file.bytes, options.limits);
    const tree = firstTree(collection);
    const loaded = load(collection, tree, options);
    if (typeof loaded === 'string') throw new FormatError(`the game cannot be regenerated: ${loaded}`);
    const edits: { start: number; end: number; text: string }[] = [];
    for (const replay of [loaded.main, ...loaded.sides.map((s) => s.replay)]) {
      for (const p of replay.plies) {
        if (p.move.dot === null || p.illegal !== undefined) continue;
        edits.push({ start: p.move.start, end: p.move.end, text: writeMoveValue(p.move.dot, p.surrounds.map(sgfChain)) });
      }
    }
    const re = tree.root.properties.find((property) => property.id === 'RE')?.values[0];
    const declared = re === undefined ? null : parseResult(re.text);
    if (re !== undefined && declared !== null && (declared.kind === 'score' || declared.kind === 'draw')) {
      edits.push({ start: re.start, end: re.end, text: scoreResult(loaded.main.scores) });
    }
    const unique = new Map(edits.map((e) => [e.start, e]));
    const sorted = [...unique.values()].sort((a, b) => a.start - b.start);
    const parts: Buffer[] = [];
    let at = 0;
    for (const edit of sorted) {
      parts.push(Buffer.from(file.bytes.subarray(at, edit.start)), Buffer.from(edit.text, 'latin1'));
      at = edit.end;
    }
    parts.push(Buffer.from(file.bytes.subarray(at)));
    return {
      publisher: SGF_DOTS_FORMAT.publisher,
      version: SGF_DOTS_FORMAT.version,
      mediaType: SGF_DOTS_FORMAT.mediaTypes[0],
      filename: 'game.regenerated.sgf',
      content: Buffer.concat(parts),
    };
  },

  /** The main line: the game's plain model (read again from the bytes). */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    return interchangeLine(await sgfDotsPlugin.toInterchange!(file, options));
  },

  async toInterchange(file: UploadedFile, options: ReadOptions): Promise<DotsInterchangeGame> {
    const collection = parseSgf(file.bytes, options.limits);
    const game = readReplayable(collection, firstTree(collection), options);
    if (typeof game === 'string') throw notConvertible(game);
    return sgfToInterchange(game);
  },

  /** Written plain (dots without chains), then regenerated: chains and a numeric RE come from the replay. */
  async fromInterchange(game: InterchangeGame, options: ReadOptions & { readonly format: FormatDescriptor }): Promise<RegeneratedFile> {
    const text = interchangeToSgfText(asDotsGame(game, SGF_DOTS_FORMAT), SGF_DOTS_FORMAT);
    const regenerated = await sgfDotsPlugin.regenerate({ bytes: Buffer.from(text, 'utf8') }, { ...options, format: SGF_DOTS_FORMAT });
    return { ...regenerated, filename: 'game.sgf' };
  },
};

/** Plies a node makes, as the game is read (read.ts): one per value of `B` and `W`, an empty one included. */
function dotsPliesOf(node: SgfNode): number {
  let plies = 0;
  for (const property of node.properties) if (property.id === 'B' || property.id === 'W') plies += property.values.length;
  return plies;
}

function firstTree(collection: SgfCollection): SgfGameTree {
  const tree = collection.trees[0];
  if (tree === undefined) throw new FormatError('the file holds no SGF game tree');
  return tree;
}

interface Loaded {
  readonly game: SgfDotsGame;
  readonly main: SgfReplay;
  readonly sides: SideLineReplay[];
  readonly replayedAll: boolean;
}

/** The Dots game of the tree, or why the engine cannot replay it (stored without being indexed). */
function readReplayable(collection: SgfCollection, tree: SgfGameTree, options: ReadOptions): SgfDotsGame | string {
  let game: SgfDotsGame;
  try {
    game = readDotsGame(collection, tree.root, options.format !== undefined);
  } catch (error) {
    if (error instanceof NotReplayable) return error.message;
    throw error;
  }
  checkBoard(options.limits, game.width, game.height, collection.locate(tree.root.start));
  if (game.width > MAX_SIDE || game.height > MAX_SIDE) {
    return `the field is ${game.width}x${game.height}: the Dots rules engine replays fields up to ${MAX_SIDE}x${MAX_SIDE}`;
  }
  return game;
}

/** The game replayed, or why it is stored without being indexed. */
function load(collection: SgfCollection, tree: SgfGameTree, options: ReadOptions): Loaded | string {
  const game = readReplayable(collection, tree, options);
  if (typeof game === 'string') return game;
  const main = replayLine(mainLine(game.rootNode), game.width, game.height);
  const sides: SideLineReplay[] = [];
  let budget = SIDE_LINE_WORK * options.limits.maxPlies;
  let replayedAll = true;
  sideLines(game.rootNode).forEach((line, i) => {
    const cost = line.nodes.reduce((sum, node) => sum + node.moves.length, 0);
    if (cost > budget) {
      replayedAll = false;
      return;
    }
    budget -= cost;
    const shared = line.nodes.slice(0, line.shared).reduce((sum, node) => sum + node.moves.length, 0);
    sides.push({ index: i + 1, replay: replayLine(line.nodes, game.width, game.height), shared });
  });
  return { game, main, sides, replayedAll };
}

/** Whether any move of the game writes a chain: only then is a move without one a claim. */
function recordsChains(root: SgfDotsNode): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.moves.some((m) => m.chains.length > 0)) return true;
    stack.push(...node.children);
  }
  return false;
}
