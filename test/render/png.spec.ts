import { existsSync } from 'node:fs';
import { drawsText, svgToPng } from '../../src/render/png.js';
import { describeIfThere } from '../support/optional.js';
import type { Requirement } from '../support/optional.js';

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
});

// A font given by file, so the check does not depend on which other fonts this machine has.
const DEJAVU = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const dejaVuThere: Requirement = {
  what: 'DejaVu Sans',
  missing: existsSync(DEJAVU) ? null : `no font at ${DEJAVU} (install the Debian package fonts-dejavu-core)`,
  requiredBy: 'TABULA_REQUIRE_FONT',
};

describeIfThere('PNG board pictures with a font', dejaVuThere, () => {
  it('write text with a font they are given', async () => {
    expect(await drawsText({ font: { loadSystemFonts: false, fontFiles: [DEJAVU], sansSerifFamily: 'DejaVu Sans' }, logLevel: 'off' })).toBe(true);
  });
});
