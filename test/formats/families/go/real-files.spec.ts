import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import type { GoInterchangeGame } from '../../../../src/formats/families/go/index.js';
import { analyseGoFans } from '../../../../src/formats/plugins/gofans-xml/analysis.js';
import { interpretGoFans, standardDocument } from '../../../../src/formats/plugins/gofans-xml/import-procedure.js';
import { gofansToInterchange } from '../../../../src/formats/plugins/gofans-xml/interchange.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { GOFANS_SCHEMAS, GoFansVersion, STANDARD_SCHEMA } from '../../../../src/formats/plugins/gofans-xml/schemas.js';
import { runXmllint } from '../../../../src/formats/plugins/gofans-xml/xmllint.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import type { GameRecord } from '../../../../src/formats/plugin.js';
import { sgfGoPlugin } from '../../../../src/formats/plugins/sgf-go/plugin.js';
import { filesUnder } from '../../../support/files.js';
import { expectedOutcomes, firstValue, sabakiRoot } from '../../../support/go/sabaki-sgf.js';

/*
 * GNU Go's regression games (test/fixtures/realdata) through the family's conversions:
 * SGF → GoFans 1.1 and 2.2 → SGF. What GoFans can hold, and what each game must come back as, is
 * read from the files by @sabaki/sgf, independently of the archive's SGF reader.
 */

const ROOT = 'test/fixtures/realdata/go/gnugo_regression_games';
const files = filesUnder(ROOT, '.sgf');
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const format = (version: string) => [...gofansXmlPlugin.formats, ...sgfGoPlugin.formats].find((f) => f.version === version)!;
const VERSIONS: GoFansVersion[] = ['1.1', '2.2'];
const shown = (path: string) => path.slice(ROOT.length + 1);

/** What the test reads itself with @sabaki/sgf: setup stones and variations anywhere in the tree, root values. */
function independent(bytes: Buffer) {
  const root = sabakiRoot(bytes);
  let setup = false;
  let variations = 0;
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.data.AB || node.data.AW || node.data.AE) setup = true;
    variations += Math.max(0, node.children.length - 1);
    stack.push(...node.children);
  }
  const first = (id: string) => firstValue(root.data, id);
  const size = (first('SZ') ?? '19').split(':').map(Number);
  return { first, setup, variations, square: size.length === 1 || size[0] === size[1], side: size[0] };
}

interface Trip {
  readonly path: string;
  readonly version: GoFansVersion;
  readonly original: GameRecord;
  /** The GoFans file written from the SGF, or why it does not fit. */
  readonly xml: string | null;
  readonly refusal: FormatError | null;
  /** The GoFans file converted back to SGF and read. */
  readonly back: GameRecord | null;
}

describe("GNU Go's regression games: SGF → GoFans 1.1 / 2.2 → SGF", () => {
  const trips: Trip[] = [];

  beforeAll(async () => {
    for (const path of files) {
      const bytes = readFileSync(path);
      const original = await sgfGoPlugin.read({ bytes }, options);
      const game = (await sgfGoPlugin.toInterchange!({ bytes }, options)) as GoInterchangeGame;
      for (const version of VERSIONS) {
        let xml: string | null = null;
        let refusal: FormatError | null = null;
        try {
          xml = String((await gofansXmlPlugin.fromInterchange!(game, { ...options, format: format(version) })).content);
        } catch (error) {
          if (!(error instanceof FormatError)) throw error;
          refusal = error;
        }
        let back: GameRecord | null = null;
        if (xml !== null) {
          // The plugin's reading after its XSDs (validated below, in one run per schema).
          const gofans = gofansToInterchange(interpretGoFans(standardDocument(xml), version));
          const sgf = await sgfGoPlugin.fromInterchange!(gofans, { ...options, format: format('FF4-Go') });
          back = await sgfGoPlugin.read({ bytes: sgf.content as Buffer }, options);
        }
        trips.push({ path, version, original, xml, refusal, back });
      }
    }
  });

  it('convert every game GoFans can hold and refuse the others with 422 export.does_not_fit naming why', () => {
    expect(files.length).toBe(673);
    const wrong: string[] = [];
    const counts: Record<string, { converted: number; setup: number; variations: number }> = {};
    for (const trip of trips) {
      const facts = independent(readFileSync(trip.path));
      const count = (counts[trip.version] ??= { converted: 0, setup: 0, variations: 0 });
      // GoFans holds no setup stones; 1.1 holds no variations; the GNU Go boards are square, 5..19.
      const reason = facts.setup ? 'setup' : trip.version === '1.1' && facts.variations > 0 ? 'variation' : null;
      expect(facts.square && facts.side >= 2 && facts.side <= 25).toBe(true);
      if (reason === null) {
        count.converted++;
        if (trip.refusal) wrong.push(`${shown(trip.path)} ${trip.version}: refused, ${trip.refusal.message}`);
        continue;
      }
      count[reason === 'setup' ? 'setup' : 'variations']++;
      if (trip.refusal === null) wrong.push(`${shown(trip.path)} ${trip.version}: converted though it has ${reason}s`);
      else if (trip.refusal.status !== 422 || trip.refusal.code !== 'export.does_not_fit' || !trip.refusal.message.includes(reason)) {
        wrong.push(`${shown(trip.path)} ${trip.version}: ${trip.refusal.code} ${trip.refusal.message}`);
      }
    }
    expect(wrong).toEqual([]);
    console.log(`GoFans conversions of ${files.length} GNU Go games: ${JSON.stringify(counts)}`);
    // 185 games set up handicap stones; 46 of the others hold variations (docs/formats/gofans-xml.md).
    expect(counts['2.2']).toEqual({ converted: 488, setup: 185, variations: 0 });
    expect(counts['1.1'].setup).toBe(185);
    expect(counts['1.1'].converted + counts['1.1'].variations).toBe(488);
    expect(counts['1.1'].variations).toBeGreaterThan(0);
  });

  it('write files that pass Standard.xsd and their version XSD (libxml2 with --huge, as the plugin runs it; one run per schema)', async () => {
    for (const version of VERSIONS) {
      const xml = trips.filter((t) => t.version === version && t.xml !== null).map((t, i) => ({ fileName: `game${i}.xml`, contents: t.xml! }));
      for (const schema of [STANDARD_SCHEMA, GOFANS_SCHEMAS[version]]) {
        const args = ['--huge', '--schema', 'schema.xsd', '--noout', ...xml.map((f) => f.fileName)];
        const run = await runXmllint([...xml, { fileName: 'schema.xsd', contents: schema.text }], args, { initialPages: 256, maxPages: 16384 });
        expect(run.stderr.split('\n').filter((line) => !/ validates$/.test(line) && line !== '').slice(0, 3)).toEqual([]);
        expect(run.exitCode).toBe(0);
      }
    }
  });

  it('regenerate the GoFans caches: every written file agrees with its own replay and is legal', () => {
    const wrong: string[] = [];
    for (const trip of trips.filter((t) => t.xml !== null)) {
      const { game, replay } = interpretGoFans(standardDocument(trip.xml!), trip.version);
      const { verdict } = analyseGoFans(game, replay);
      if (!verdict.legal || !verdict.consistent) wrong.push(`${shown(trip.path)} ${trip.version}: ${verdict.problems.find((p) => p.code !== 'note.resigned_without_pass')?.message}`);
    }
    expect(wrong).toEqual([]);
  });

  it('come back to SGF with the same moves, players, komi and result as the files write them', () => {
    const wrong: string[] = [];
    let plies = 0;
    for (const trip of trips.filter((t) => t.back !== null)) {
      const facts = independent(readFileSync(trip.path));
      const a = trip.original.analysis!;
      const b = trip.back!.analysis!;
      const km = facts.first('KM');
      const want = {
        players: [facts.first('PB'), facts.first('PW')],
        komi: km === null ? null : Number(km),
        outcomes: expectedOutcomes(facts.first('RE')),
        size: Number(facts.first('SZ') ?? 19),
      };
      const got = { players: b.players.map((p) => p.name), komi: b.details.komi, outcomes: b.players.map((p) => p.outcome), size: b.facts.boardWidth };
      if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`${shown(trip.path)} ${trip.version}: ${JSON.stringify(got)} != ${JSON.stringify(want)}`);
      // Every ply of the main line (passes included) and what it captured; the outcome and result words.
      const line = (r: typeof a) => r.replay.map((p) => `${p.player}:${p.move}:${p.captured.join('+')}`).join(' ');
      if (line(b) !== line(a)) wrong.push(`${shown(trip.path)} ${trip.version}: the main line differs`);
      if (b.result !== a.result || JSON.stringify(b.facts) !== JSON.stringify(a.facts)) {
        wrong.push(`${shown(trip.path)} ${trip.version}: result ${b.result} != ${a.result}`);
      }
      // 2.2 keeps the whole tree.
      // (Variations made only of move-less nodes are no lines of moves: the SGF reader does not count them either.)
      if (trip.version === '2.2' && (b.details.variations !== a.details.variations || b.details.treeMoves !== a.details.treeMoves)) {
        wrong.push(`${shown(trip.path)} 2.2: ${b.details.variations} variations, ${a.details.variations} read from the file`);
      }
      plies += b.moveCount;
    }
    expect(wrong).toEqual([]);
    console.log(`${trips.filter((t) => t.back !== null).length} round trips, ${plies} main-line plies compared`);
    expect(plies).toBeGreaterThan(150_000);
  });
});
