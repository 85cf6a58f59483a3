import { barsCheckersPlugin } from '../../../../src/formats/plugins/bars-checkers/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const facts = async (text: string) => (await barsCheckersPlugin.read({ bytes: Buffer.from(text, 'utf8') }, options)).analysis!.facts;

describe('BARS facts', () => {
  it('8x8 Russian draughts, no date or event, with or without an area_monitor', async () => {
    const expected = { boardWidth: 8, boardHeight: 8, datePlayed: null, event: null, rules: 'Russian draughts' };
    expect(await facts('go = [[156, 145], [223, 234]]')).toEqual(expected);
    expect(await facts('{"go": [], "area_monitor": null}')).toEqual(expected);
  });
});
