import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sgfDotsPlugin } from '../../../../src/formats/plugins/sgf-dots/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { FormatReader } from '../../../../src/formats/format-reader.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import type { GameAnalysis, ReadOptions } from '../../../../src/formats/plugin.js';

// The Dots games of the shared real-data folder (copies, with their provenance, in
// test/fixtures/realdata/dots): 65 kropla files, 1 oppai-rs game, 1 playdots.ru game.
const ROOT = 'test/fixtures/realdata/dots';
const files = ['bartek-d-kropla', 'oppai-rs', 'KvanTTT-Dots-Game-AI'].flatMap((folder) =>
  readdirSync(join(ROOT, folder))
    .filter((name) => name.endsWith('.sgf'))
    .sort()
    .map((name) => ({ name, bytes: readFileSync(join(ROOT, folder, name)) })),
);
const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const named: ReadOptions = { ...options, format: sgfDotsPlugin.formats[0] };
const byName = (name: string) => files.find((f) => f.name === name)!;
const analyse = async (name: string): Promise<GameAnalysis> => (await sgfDotsPlugin.read(byName(name), options)).analysis!;

// ---- Recorded result: what each file says, read by this test from the file's own properties ----

type SgfNode = Map<string, string[]>;

/**
 * The nodes of the first game tree's main line, read here from the SGF syntax alone: a main line
 * follows the first variation at each branch, so it is every node before the first `)`.
 */
function mainLine(text: string): SgfNode[] {
  const nodes: SgfNode[] = [];
  let ident = '';
  let afterValue = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === ')') break;
    if (char === ';') {
      nodes.push(new Map());
      ident = '';
      afterValue = false;
    } else if (char >= 'A' && char <= 'Z') {
      ident = afterValue ? char : ident + char;
      afterValue = false;
    } else if (char === '[') {
      let value = '';
      for (i++; i < text.length && text[i] !== ']'; i++) value += text[i] === '\\' ? text[++i] : text[i];
      const node = nodes.at(-1)!;
      node.set(ident, [...(node.get(ident) ?? []), value]);
      afterValue = true;
    }
  }
  return nodes;
}

/** The main line's moves as `B[po]`, without the chains a value may carry after a dot. */
const movesOf = (nodes: readonly SgfNode[]): string[] =>
  nodes.flatMap((node) => [...node].flatMap(([id, values]) => (id === 'B' || id === 'W' ? values.map((v) => `${id}[${v.split('.')[0]}]`) : [])));

const rootKey = (nodes: readonly SgfNode[]): string => JSON.stringify([...(nodes[0] ?? new Map())]);

/** When `longer` is `shorter` with moves inserted, the inserted moves; otherwise null. */
function inserted(shorter: readonly string[], longer: readonly string[]): string[] | null {
  if (longer.length <= shorter.length) return null;
  const extra: string[] = [];
  let k = 0;
  for (const move of longer) {
    if (k < shorter.length && move === shorter[k]) k++;
    else extra.push(move);
  }
  return k === shorter.length ? extra : null;
}

type Classified =
  | { kind: 'compared'; margin: number }
  | { kind: 'no result' }
  | { kind: 'not a score'; re: string }
  | { kind: 'territory'; re: string }
  | { kind: 'optional surrounds'; re: string }
  | { kind: 'edited copy'; re: string; of: string; inserted: string[] };

const NOT_A_SCORE = /^(?:[BW]\+(?:R|Resign|T|Time|F|Forfeit)?|\?|Void)$/i;

/** Compare the file's RE with the replay, or say why not, from the file's own properties. */
function classify(file: { name: string; bytes: Buffer }, all: readonly { name: string; bytes: Buffer }[]): Classified {
  const nodes = mainLine(file.bytes.toString('utf8'));
  const re = nodes[0]?.get('RE')?.[0];
  if (re === undefined) return { kind: 'no result' };
  if (NOT_A_SCORE.test(re)) return { kind: 'not a score', re };
  const score = /^([BW])\+(\d+)$/.exec(re);
  if (!score && !/^(0|Draw)$/i.test(re)) throw new Error(`${file.name}: RE[${re}] is neither a score nor a known non-score result`);
  // zagram writes the territory it counted in the final node (TB/TW chains); its RE includes it.
  const last = nodes.at(-1)!;
  if (last.has('TB') || last.has('TW')) return { kind: 'territory', re };
  // The rules the file was played under, as it records them (zagram's RU is a key=value list).
  const rules = new Map((nodes[0].get('RU')?.[0] ?? '').split(',').map((pair) => pair.split('=') as [string, string]));
  if (rules.get('MustSurr') === '0') return { kind: 'optional surrounds', re };
  // A file with another file's root node (players, date, RE) and that file's moves plus some: an edit of that game.
  const moves = movesOf(nodes);
  for (const other of all) {
    const otherNodes = mainLine(other.bytes.toString('utf8'));
    if (other.name === file.name || rootKey(otherNodes) !== rootKey(nodes)) continue;
    const extra = inserted(movesOf(otherNodes), moves);
    if (extra) return { kind: 'edited copy', re, of: other.name, inserted: extra };
  }
  return { kind: 'compared', margin: score ? (score[1] === 'B' ? 1 : -1) * Number(score[2]) : 0 };
}

function reason(c: Exclude<Classified, { kind: 'compared' }>): string {
  switch (c.kind) {
    case 'no result':
      return 'records no result (no RE)';
    case 'not a score': {
      const how = /\?|Void/i.test(c.re) ? 'no result known' : /\+R/i.test(c.re) ? 'ended by resignation' : /\+T/i.test(c.re) ? 'ended on time' : /\+F/i.test(c.re) ? 'ended by forfeit' : 'a winner without a margin';
      return `RE[${c.re}]: ${how}, no score to compare`;
    }
    case 'territory':
      return `RE[${c.re}] counts the territory of its final TB/TW chains, which captures do not give`;
    case 'optional surrounds':
      return `RE[${c.re}] under RU MustSurr=0: a surround could be left open, the replay closes it at once`;
    case 'edited copy':
      return `RE[${c.re}] is copied with the root of ${c.of}, whose moves it has with ${c.inserted.join('')} inserted`;
  }
}

/** The files whose RE is compared with the replay, with Black's margin as RE writes it (B+n, W+n as −n). */
const COMPARED: Record<string, number> = {
  '1295.sgf': 17, // RE[B+17], szkrab.net.pl
  '6492.sgf': 16, // RE[B+16], szkrab.net.pl
  '6492_mod.sgf': 16, // 6492 with the chain of W[sv] left out: same moves, RE[B+16]
  'DotsGame.Formtas.Tests_FullSgfWithStop.sgf': 1, // RE[B+1], playdots.ru
};
/** Every other file, with the reason `classify` must derive from it. */
const EXCLUDED: Record<string, string> = {
  // No RE at all: kropla's test positions and the Kropki app's games (`grep -L 'RE\['`).
  ...Object.fromEntries(
    ['1cEYglg5R', '2YSc8Jx0D', '2rUqNVnOz', '39VaGZNaT', '3UmbWEodn', '46uZmR3bT', '4tv4M49Q6', 'AR4Ls0T5', 'AfUnsHwg', 'FeAZ3A9h', 'bardzo-duzo-grozb', 'connections', 'grozby1',
     'mc139-shotcuts-bug2', 'mc_09', 'proste-grozby', 'spt53fik', 'tCz6PaUI', 'trivial', 'u0O9GbZR', 'zawierajace-sie-grozby', 'znikajace-grozby']
      .map((name) => [`${name}.sgf`, 'records no result (no RE)']),
  ),
  '28RIwtT.sgf': 'RE[?]: no result known, no score to compare',
  ...Object.fromEntries(
    [['zagram184259', 'B+R'], ['zagram302058', 'W+R'], ['zagram302694', 'B+R'], ['zagram303024', 'B+R'], ['zagram309754', 'B+R'], ['zagram318442', 'W+R'], ['zagram352562', 'W+R']]
      .map(([name, re]) => [`${name}.sgf`, `RE[${re}]: ended by resignation, no score to compare`]),
  ),
  // zagram's final node writes the territory chains (TB/TW) and its RE counts that territory.
  ...Object.fromEntries(
    [['153375', 'B+136'], ['158271', 'B+1'], ['159331', 'W+88'], ['161748', 'W+1'], ['163926', 'B+5'], ['169870', 'W+14'], ['175599', 'B+105'], ['175835', 'B+2'],
     ['181240', 'W+21'], ['185164', 'W+2'], ['185253', 'W+11'], ['186746', 'B+7'], ['188436', 'W+1'], ['190348', 'B+4'], ['190626', 'W+99'], ['191639', 'W+154'],
     ['194948', 'W+60'], ['201427', 'W+195'], ['201753', 'B+157'], ['203930', 'B+211'], ['260540', 'B+8'], ['284317', 'W+9'], ['298031', 'B+2'], ['298719', 'W+1'],
     ['299721', 'W+3'], ['312084', 'W+21'], ['314587', 'W+11'], ['77976', 'W+11'], ['86223', '0']]
      .map(([id, re]) => [`zagram${id}.sgf`, `RE[${re}] counts the territory of its final TB/TW chains, which captures do not give`]),
  ),
  // No territory written, but played with optional surrounds (its RU), which the replay does not follow.
  'zagram317414.sgf': 'RE[W+154] under RU MustSurr=0: a surround could be left open, the replay closes it at once',
  // 6492's root node (players, date, RE[B+16]) over 6492's moves with two moves inserted by hand.
  '6492_mod2.sgf': 'RE[B+16] is copied with the root of 6492.sgf, whose moves it has with W[rv]B[aa] inserted',
  '6492_mod3.sgf': 'RE[B+16] is copied with the root of 6492.sgf, whose moves it has with W[rv]B[aa] inserted',
  '6492_mod4.sgf': 'RE[B+16] is copied with the root of 6492.sgf, whose moves it has with B[aa]W[ab] inserted',
};

describe('SGF GM[40] real files', () => {
  it('detects the 65 files that write GM[40]; the two without GM are not claimed', () => {
    expect(files).toHaveLength(67);
    const refused = files.filter((f) => !sgfDotsPlugin.detect(f)).map((f) => f.name);
    // trivial.sgf is "(;)"; u0O9GbZR.sgf (a kropla self-play game) has no GM, which SGF reads as Go.
    expect(refused).toEqual(['trivial.sgf', 'u0O9GbZR.sgf']);
  });

  it('is the only plugin that claims them', async () => {
    const reader = new FormatReader(FORMAT_PLUGINS);
    for (const file of files.filter((f) => sgfDotsPlugin.detect(f))) {
      const record = await reader.read(file, { timeBudgetMs: 1000, limits: DEFAULT_LIMITS });
      expect([file.name, record.publisher, record.version]).toEqual([file.name, 'SGF', 'FF4-Dots']);
    }
  });

  it('refuses GM-less u0O9GbZR as Go at its first surround, telling how to have it read as Dots', async () => {
    const reader = new FormatReader(FORMAT_PLUGINS);
    // The kropla file writes its 127th move B[ao.aobpcobnao]: point ao, then the chain it surrounds.
    const error = await reader.read(byName('u0O9GbZR.sgf'), { timeBudgetMs: 1000, limits: DEFAULT_LIMITS }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'format.malformed' });
    expect((error as Error).message).toContain('B[ao.aobpcobnao] is not a move');
    expect((error as Error).message).toContain('format=SGF/FF4-Dots');
  });

  it('indexes every game that has a field size, GM-less u0O9GbZR too when the format is named', async () => {
    for (const file of files) {
      const record = await sgfDotsPlugin.read(file, named);
      if (file.name === 'trivial.sgf') expect(record.notIndexedReason).toBe('the root node has no field size (SZ)');
      else expect([file.name, record.analysis?.moveCount! > 0]).toEqual([file.name, true]);
    }
  });

  it.each([
    // szkrab.net.pl and playdots.ru: the replayed captures give the recorded result
    ['1295.sgf', 'B+17', [17, 0]],
    ['6492.sgf', 'B+16', [16, 0]],
    ['DotsGame.Formtas.Tests_FullSgfWithStop.sgf', 'B+1', [3, 2]],
  ])('%s: legal, consistent, RE[%s] agrees', async (name, result, scores) => {
    const analysis = await analyse(name);
    expect(analysis.details.declaredResult).toBe(result);
    expect(analysis.players.map((p) => p.captures)).toEqual(scores);
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
  });

  it('zagram352562 (oppai-rs): Red (White) captured 60 and Black 3, as the oppai-rs source asserts; RE[W+R]', async () => {
    const analysis = await analyse('zagram352562.sgf');
    expect([analysis.facts.boardWidth, analysis.facts.boardHeight, analysis.details.setupDots, analysis.moveCount]).toEqual([39, 32, 16, 244]);
    expect(analysis.players.map((p) => [p.color, p.captures, p.outcome])).toEqual([
      ['black', 3, 'lost'],
      ['white', 60, 'won'],
    ]);
    expect(analysis.result).toBe('black resigned');
    // Forced surrounds (MustSurr=1): every chain zagram writes captures what the engine captures.
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
  });

  it('the playdots.ru game hands over its source and its root comment as texts about the whole game', async () => {
    // Read from the file: SO[…] then C[…] on the root; no other node has a comment.
    const analysis = await analyse('DotsGame.Formtas.Tests_FullSgfWithStop.sgf');
    expect(analysis.texts).toEqual([
      { ply: 0, text: 'https://playdots.ru/game-info/?id=962686' },
      { ply: 0, text: 'without territory, with landing, single crossing in the center, 20 sec for a move, 4 min for a round, spectators 5, average score 8.5, duration 13:08' },
    ]);
    // The kropla and oppai-rs games write no comment, game comment, name, place, annotator or source.
    const others = files.filter((f) => f.name !== 'DotsGame.Formtas.Tests_FullSgfWithStop.sgf' && !/(^|[^A-Z])(C|GC|GN|PC|AN|SO)\[/.test(f.bytes.toString('utf8')));
    expect(others).toHaveLength(files.length - 1);
  });

  it('zagram153375: players, date, event-less facts and rules as written', async () => {
    const analysis = await analyse('zagram153375.sgf');
    expect(analysis.players.map((p) => p.name)).toEqual(['kretes', 'Marta']);
    expect(analysis.facts).toMatchObject({ boardWidth: 25, boardHeight: 25, datePlayed: '2013-04-19', event: null });
    expect(analysis.facts.rules).toMatch(/^Punish=0,Holes=1/);
  });

  describe("the recorded score against the replay's, file by file", () => {
    const classified = files.map((file) => [file.name, classify(file, files)] as const);

    it(`compares ${Object.keys(COMPARED).length} files and excludes the other ${files.length - Object.keys(COMPARED).length}, each for the reason listed in this file`, () => {
      const compared = Object.fromEntries(classified.flatMap(([name, c]) => (c.kind === 'compared' ? [[name, c.margin]] : [])));
      expect(compared).toEqual(COMPARED);
      expect(Object.keys(compared)).toHaveLength(4);
      const excluded = Object.fromEntries(classified.flatMap(([name, c]) => (c.kind === 'compared' ? [] : [[name, reason(c)]])));
      expect(excluded).toEqual(EXCLUDED);
      expect(Object.keys(compared).length + Object.keys(excluded).length).toBe(files.length);
    });

    it.each(Object.entries(COMPARED))('%s: the replayed captures differ by the margin its RE records (%d for Black)', async (name, margin) => {
      const analysis = (await sgfDotsPlugin.read(byName(name), named)).analysis!;
      const [black, white] = analysis.players.map((p) => p.points!);
      expect(black - white).toBe(margin);
    });
  });

  it('regenerates every indexed game; the regenerated file replays consistent and regenerates to itself', async () => {
    for (const name of ['1295.sgf', '6492_mod.sgf', 'zagram352562.sgf', 'zagram302058.sgf']) {
      const first = (await sgfDotsPlugin.regenerate(byName(name), named)).content as Buffer;
      const again = (await sgfDotsPlugin.regenerate({ bytes: first }, named)).content as Buffer;
      expect([name, again.equals(first)]).toEqual([name, true]);
      const analysis = (await sgfDotsPlugin.read({ bytes: first }, named)).analysis!;
      expect([name, analysis.verdict.consistent]).toEqual([name, true]);
    }
  });
});
