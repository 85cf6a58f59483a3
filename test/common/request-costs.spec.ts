import { ConfigError, loadConfig } from '../../src/common/config.js';
import { costOf, EXPENSIVE_UNITS } from '../../src/common/request-costs.js';

describe('the cost table', () => {
  it('lets /health through free, never limited', () => {
    expect(costOf('GET', '/health')).toMatchObject({ budget: 'free', units: 0, expensive: false });
  });

  it('prices a plain read at 1 unit, and a search or listing at 2', () => {
    for (const path of ['/games/12', '/games/12/raw', '/players/anna', '/uploads/7', '/imports/3', '/formats', '/', '/no/such/route']) {
      expect(costOf('GET', path)).toMatchObject({ budget: 'reads', units: 1, expensive: false });
    }
    for (const path of ['/games', '/players', '/players/anna/games', '/imports/3/results']) expect(costOf('GET', path)).toMatchObject({ budget: 'reads', units: 2 });
  });

  it('prices a board picture by its pixels, a PNG twice an SVG: a 2048 px PNG 34 units, expensive', () => {
    const units = (query: Record<string, unknown>) => costOf('GET', '/games/12/board.svg', query).units;
    expect(units({})).toBe(2);
    expect(units({ size: '1024' })).toBe(5);
    expect(units({ size: '2048' })).toBe(17);
    expect(units({ size: '2048', format: 'png' })).toBe(34);
    expect(costOf('GET', '/games/12/board.svg', { size: '2048', format: 'png' })).toMatchObject({ budget: 'reads', expensive: true });
    expect(costOf('GET', '/games/12/board.svg', { size: '2048', format: 'png' }).units).toBeGreaterThan(costOf('GET', '/games/12').units);
    expect(costOf('GET', '/games/12/board.svg', { size: '480' }).expensive).toBe(false);
  });

  it('prices a size the route refuses as the nearest it accepts, and a repeated one as the larger', () => {
    const units = (query: Record<string, unknown>) => costOf('GET', '/games/12/board.svg', query).units;
    expect(units({ size: '99999', format: 'png' })).toBe(34);
    expect(units({ size: '1' })).toBe(2);
    expect(units({ size: 'big' })).toBe(2);
    expect(units({ size: ['64', '2048'], format: ['svg', 'png'] })).toBe(34);
  });

  it('prices the searches over every game and the bulk exports as many plain reads, expensive, on the read budget even when POSTed', () => {
    for (const [method, path] of [
      ['POST', '/patterns/games'],
      ['GET', '/positions/games'],
      ['POST', '/positions/games'],
      ['GET', '/positions/explorer'],
      ['POST', '/positions/explorer'],
    ]) {
      expect(costOf(method, path)).toMatchObject({ budget: 'reads', units: 15, expensive: true });
    }
    expect(costOf('GET', '/games/export')).toMatchObject({ budget: 'reads', units: 30, expensive: true });
    expect(costOf('POST', '/games/export')).toMatchObject({ budget: 'reads', units: 30, expensive: true });
    expect(EXPENSIVE_UNITS).toBeLessThanOrEqual(15);
  });

  it('prices the replay, conversions, export and relatives of one game at a few units', () => {
    for (const route of ['replay', 'regenerated', 'export', 'relatives']) expect(costOf('GET', `/games/12/${route}`)).toMatchObject({ budget: 'reads', units: 3, expensive: false });
  });

  it('counts uploads, imports, deletions, reindexing and tokens as one write each, on the write budget alone', () => {
    for (const [method, path] of [
      ['POST', '/games'],
      ['POST', '/imports'],
      ['DELETE', '/games/12'],
      ['POST', '/games/12/reindex'],
      ['POST', '/reindex'],
      ['POST', '/tokens'],
      ['DELETE', '/tokens/abc'],
      ['PUT', '/anything'],
    ]) {
      expect(costOf(method, path)).toMatchObject({ budget: 'writes', units: 1, expensive: false });
    }
  });

  it('routes as Express does: HEAD as GET, any case, trailing slashes', () => {
    expect(costOf('HEAD', '/games/12/board.svg', { size: '2048', format: 'png' }).units).toBe(34);
    expect(costOf('get', '/Games/Export/').units).toBe(30);
    expect(costOf('GET', '/health/')).toMatchObject({ budget: 'free' });
  });
});

describe('the cost limits settings', () => {
  it('allow two expensive requests in flight per client by default, and keep the budgets', () => {
    expect(loadConfig({})).toMatchObject({ EXPENSIVE_IN_FLIGHT_PER_CLIENT: 2, RATE_LIMIT_PER_MINUTE: 600, RATE_LIMIT_KEY_PER_MINUTE: 6000, RATE_LIMIT_WRITES_PER_MINUTE: 120 });
    expect(loadConfig({ EXPENSIVE_IN_FLIGHT_PER_CLIENT: '0' }).EXPENSIVE_IN_FLIGHT_PER_CLIENT).toBe(0);
  });

  it.each(['-1', 'two', '1.5', '1001'])('refuse EXPENSIVE_IN_FLIGHT_PER_CLIENT=%s at boot, naming it', (value) => {
    expect(() => loadConfig({ EXPENSIVE_IN_FLIGHT_PER_CLIENT: value })).toThrow(ConfigError);
    expect(() => loadConfig({ EXPENSIVE_IN_FLIGHT_PER_CLIENT: value })).toThrow(/EXPENSIVE_IN_FLIGHT_PER_CLIENT/);
  });
});
