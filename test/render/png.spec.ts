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

  // A font given by file, so the check does not depend on which other fonts this machine has. Without
  // the file the test is skipped, saying so, unless TABULA_REQUIRE_FONT=1 (CI), which makes it a failure.
  const dejaVu = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
  if (existsSync(dejaVu)) {
    it('write text with a font they are given', async () => {
      expect(await drawsText({ font: { loadSystemFonts: false, fontFiles: [dejaVu], sansSerifFamily: 'DejaVu Sans' }, logLevel: 'off' })).toBe(true);
    });
  } else {
    const why = `no font at ${dejaVu} (install the Debian package fonts-dejavu-core)`;
    if (process.env.TABULA_REQUIRE_FONT === '1') {
      it('write text with a font they are given: finds DejaVu Sans, as TABULA_REQUIRE_FONT=1 demands', () => {
        throw new Error(`${why}; TABULA_REQUIRE_FONT=1 makes this a failure`);
      });
    } else {
      // Said in the run's output too: the default reporter does not name skipped tests.
      console.warn(`test/render/png.spec.ts: "write text with a font they are given" skipped: ${why}; TABULA_REQUIRE_FONT=1 makes this a failure`);
      it.skip(`write text with a font they are given: skipped, ${why}`, () => undefined);
    }
  }
});
