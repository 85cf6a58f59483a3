import { ConfigError, loadConfig } from '../../src/common/config.js';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, DATA_DIR: './data', MAX_UPLOAD_BYTES: 10 * 1024 * 1024, ANALYSIS_BUDGET_MS: 2000 });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.apiKeys).toEqual([]);
  });

  it('reads every setting it documents', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u:p@db:5432/tabula',
      API_KEYS: ' a , b ,,',
      MAX_UPLOAD_BYTES: '1024',
      ANALYSIS_BUDGET_MS: '0',
      LOG_LEVEL: 'warn',
    });
    expect(config).toMatchObject({ PORT: 8080, DATABASE_URL: 'postgres://u:p@db:5432/tabula', MAX_UPLOAD_BYTES: 1024, ANALYSIS_BUDGET_MS: 0, LOG_LEVEL: 'warn' });
    expect(config.apiKeys).toEqual(['a', 'b']);
  });

  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['MAX_UPLOAD_BYTES', '0'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s and names the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}:`));
  });
});
