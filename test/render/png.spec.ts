import { existsSync } from 'node:fs';
import { drawsText, svgToPng } from '../../src/render/png.js';

/** The PNG form of board pictures, and the font check behind its start-up warning. */
describe('PNG board pictures', () => {
  it('are PNG files of the SVG\'s own size', async () => {
    const png = await svgToPng('<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64"><rect width="96" height="64" fill="#dcb35c"/></svg>');
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([96, 64]);
  });

  it('know when no font is there to write text with', async () => {
    expect(await drawsText({ font: { loadSystemFonts: false }, logLevel: 'off' })).toBe(false);
  });

  // A font given by file, so the check does not depend on what this machine has installed.
  const dejaVu = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
  (existsSync(dejaVu) ? it : it.skip)('write text with a font they are given', async () => {
    expect(await drawsText({ font: { loadSystemFonts: false, fontFiles: [dejaVu], sansSerifFamily: 'DejaVu Sans' }, logLevel: 'off' })).toBe(true);
  });
});
