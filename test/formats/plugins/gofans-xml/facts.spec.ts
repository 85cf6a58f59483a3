import { readFileSync } from 'node:fs';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { calendarDate } from '../../../../src/formats/families/go/index.js';
import type { GameFacts } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const EXAMPLES = new URL('../../../fixtures/gofans-examples/', import.meta.url);
const example = (version: string): string => readFileSync(new URL(`ex_${version}.xml`, EXAMPLES), 'utf8');
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const facts = async (xml: string): Promise<GameFacts> =>
  (await gofansXmlPlugin.read({ bytes: Buffer.from(xml), filename: 'game.xml' }, options)).analysis!.facts;

/** ex_2.2.xml with its `<event>…</event>` replaced by `fields`. */
const withFields = (fields: string): string => example('2.2').replace('<event>Vereinsabend</event>', fields);

describe('GoFans facts', () => {
  // Read by hand from the examples: <boardSize>9</boardSize>, <event>Vereinsabend</event>, no date, no rules.
  it.each(['1.1', '1.2', '2.1', '2.2'])('example %s: 9x9, event Vereinsabend, nothing else', async (version) => {
    // Every example has Anna at points="-1": she resigned, and no margin is recorded.
    expect(await facts(example(version))).toEqual({ boardWidth: 9, boardHeight: 9, datePlayed: null, event: 'Vereinsabend', rules: null, ending: 'resignation', margin: null });
  });

  it('reads date and rules from the free Header elements', async () => {
    const xml = withFields('<event>  Kreis\n  Pokal </event><date>2024-02-29</date><rules>Japanese</rules>');
    expect(await facts(xml)).toEqual({ boardWidth: 9, boardHeight: 9, datePlayed: '2024-02-29', event: 'Kreis Pokal', rules: 'Japanese', ending: 'resignation', margin: null });
  });

  it('without <boardSize> the board is the format default 19x19', async () => {
    const xml = example('2.2').replace('<boardSize>9</boardSize>', '');
    const result = await facts(xml);
    expect([result.boardWidth, result.boardHeight]).toEqual([19, 19]);
  });

  it('an invalid or unreadable date is null, never guessed', async () => {
    expect((await facts(withFields('<date>2023-02-29</date>'))).datePlayed).toBeNull();
    expect((await facts(withFields('<date>03/05/2024</date>'))).datePlayed).toBeNull();
    expect((await facts(withFields('<date>5.3.2024</date>'))).datePlayed).toBe('2024-03-05');
  });

  it('an empty event or one holding elements is null', async () => {
    expect((await facts(withFields('<event></event>'))).event).toBeNull();
    expect((await facts(withFields('<event><name>Cup</name></event>'))).event).toBeNull();
  });
});

describe('calendarDate', () => {
  it.each([
    ['2024-03-05', '2024-03-05'],
    ['2024-03-05T18:00:00', '2024-03-05'],
    ['2000-02-29', '2000-02-29'],
    ['1900-02-29', null],
    ['2024-04-31', null],
    ['2024-13-01', null],
    ['2024-00-10', null],
    ['31.12.1999', '1999-12-31'],
    ['2024-3-5', null],
    ['March 2024', null],
    ['2024', null],
  ])('%s → %s', (text, expected) => {
    expect(calendarDate(text)).toBe(expected);
  });
});
