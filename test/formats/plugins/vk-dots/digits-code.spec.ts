import { FormatReader } from '../../../../src/formats/format-reader.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import { vkDotsPlugin } from '../../../../src/formats/plugins/vk-dots/plugin.js';
import type { FormatPlugin, UploadedFile } from '../../../../src/formats/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const request = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const upload = (text: string): UploadedFile => ({ bytes: Buffer.from(text, 'utf8') });

/** A plugin of the test that claims what `claims` says, outright or as a fallback. */
function testPlugin(id: string, claims: (text: string) => boolean, fallback: boolean): FormatPlugin {
  const sniff = (file: UploadedFile) => claims(file.bytes.toString('utf8'));
  return {
    id,
    formats: [{ publisher: id, version: '1', family: 'dots', title: id, mediaTypes: ['text/plain'], extensions: ['.txt'] }],
    detect: fallback ? () => false : sniff,
    ...(fallback ? { detectFallback: sniff } : {}),
    read: async () => ({ publisher: id, version: '1', header: null, body: null, family: null, notIndexedReason: 'test' }),
    regenerate: async () => {
      throw new Error('not written');
    },
  };
}

describe('a VK code of decimal digits alone', () => {
  it('is not claimed outright, only offered as a fallback: two moves or more, digits 1-9 in pairs, one line', () => {
    expect(vkDotsPlugin.detect(upload('2233445566'))).toBe(false);
    expect(vkDotsPlugin.detectFallback!(upload('2233445566'))).toBe(true);
    expect(vkDotsPlugin.detectFallback!(upload('1122\n'))).toBe(true);
    for (const text of ['12', '1', '12345', '1203', '1122\n3344', '', 'b7a6', '1122#', ' 1122']) {
      expect([text, vkDotsPlugin.detectFallback!(upload(text))]).toEqual([text, false]);
    }
  });

  it('is read as VK Dots/code when no plugin claims the file: red and blue alternate, rows and columns from 1', async () => {
    // 22 33 44 55 66: a diagonal, red on (2,2) (4,4) (6,6), blue on (3,3) (5,5); nothing is surrounded.
    const record = await new FormatReader(FORMAT_PLUGINS).read(upload('2233445566'), request);
    expect([record.publisher, record.version, record.family]).toEqual(['VK Dots', 'code', 'dots']);
    expect(record.analysis!.moveCount).toBe(5);
    expect(record.analysis!.replay.map((p) => [p.player, p.move, p.captured.length])).toEqual([
      [0, '22', 0],
      [1, '33', 0],
      [0, '44', 0],
      [1, '55', 0],
      [0, '66', 0],
    ]);
    expect(record.analysis!.verdict.legal).toBe(true);
  });

  it('never takes a file another plugin claims outright', async () => {
    const digits = testPlugin('digits-outright', (text) => /^\d+$/.test(text), false);
    const record = await new FormatReader([...FORMAT_PLUGINS, digits]).read(upload('2233445566'), request);
    expect(record.publisher).toBe('digits-outright');
  });

  it('is ambiguous when another plugin offers the same fallback', async () => {
    const other = testPlugin('digits-fallback', (text) => /^\d+$/.test(text), true);
    await expect(new FormatReader([...FORMAT_PLUGINS, other]).read(upload('2233445566'), request)).rejects.toMatchObject({
      status: 422,
      code: 'format.ambiguous',
      message: expect.stringContaining('vk-dots, digits-fallback'),
    });
  });

  it('a number no plugin reads as a game stays stored text', async () => {
    const record = await new FormatReader(FORMAT_PLUGINS).read(upload('12'), request);
    expect([record.publisher, record.family, record.analysis]).toEqual([null, null, undefined]);
  });
});
