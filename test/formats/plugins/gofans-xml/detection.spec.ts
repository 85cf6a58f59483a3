import { FormatReader } from '../../../../src/formats/format-reader.js';
import { gofansXmlPlugin } from '../../../../src/formats/plugins/gofans-xml/plugin.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';

const detect = (text: string) => gofansXmlPlugin.detect({ bytes: Buffer.from(text, 'utf8') });

describe('GoFans detection: documents with a <Game> root only', () => {
  it('claims <Game> documents after a declaration, comments and processing instructions', () => {
    expect(detect('<Game><Publisher>GoFans</Publisher></Game>')).toBe(true);
    expect(detect('<?xml version="1.0"?>\n<!-- a game -->\n<?style x?>\n<Game\n>')).toBe(true);
    expect(detect('\uFEFF  <Game/>')).toBe(true);
  });

  it('leaves other XML alone: other roots, or names that only start with Game', () => {
    expect(detect('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>')).toBe(false);
    expect(detect('<GameRecord/>')).toBe(false);
    expect(detect('<!-- <Game> in a comment -->\n<notes/>')).toBe(false);
    expect(detect('<!-- unclosed comment <Game>')).toBe(false);
    expect(detect('(;GM[1];B[aa])')).toBe(false);
  });

  it('a well-formed XML file of another kind is stored, not indexed (no plugin claims it)', async () => {
    const reader = new FormatReader([gofansXmlPlugin]);
    const record = await reader.read({ bytes: Buffer.from('<?xml version="1.0"?>\n<notes><note>hi</note></notes>') }, { timeBudgetMs: 100, limits: DEFAULT_LIMITS });
    expect(record).toMatchObject({ publisher: null, family: null });
    expect(record.notIndexedReason).toMatch(/well-formed XML that no format plugin recognises/);
  });
});
