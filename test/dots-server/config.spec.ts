import { ConfigError, loadConfig } from '../../src/common/config.js';

describe('the Dots server settings', () => {
  it('default to port 7777 on every interface, with the bridge at /dots/ws', () => {
    const config = loadConfig({});
    expect([config.DOTS_PORT, config.DOTS_HOST, config.DOTS_WS_PATH]).toEqual([7777, '0.0.0.0', '/dots/ws']);
    expect([config.DOTS_IDLE_TIMEOUT_MS, config.DOTS_MAX_LINE, config.DOTS_SCRYPT_COST]).toEqual([300_000, 256, 16_384]);
  });

  it('turn off with port 0 and the path "off"', () => {
    const config = loadConfig({ DOTS_PORT: '0', DOTS_WS_PATH: 'off' });
    expect([config.DOTS_PORT, config.DOTS_WS_PATH]).toEqual([0, 'off']);
    // An empty variable counts as unset, as for every setting.
    expect(loadConfig({ DOTS_WS_PATH: '' }).DOTS_WS_PATH).toBe('/dots/ws');
  });

  it.each([
    ['DOTS_PORT', '70000'],
    ['DOTS_PORT', 'seven'],
    ['DOTS_IDLE_TIMEOUT_MS', '10'],
    ['DOTS_MAX_LINE', '10'],
    ['DOTS_SCRYPT_COST', '1000'],
    ['DOTS_WS_PATH', 'dots'],
  ])('refuse %s=%s, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
