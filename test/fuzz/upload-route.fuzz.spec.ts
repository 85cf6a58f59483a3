import fc from 'fast-check';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { arbitraryBytes, arbitraryText, FIXTURES, FUZZ_SCALE, mutatedFixture } from '../support/fuzz.js';

/**
 * The upload route under random bodies, content types, format names and file names: every answer
 * is below 500 and is problem+json when it is an error, and only acknowledged uploads leave rows.
 */
describe('POST /games under fuzzing', () => {
  let archive: TestArchive;

  beforeAll(async () => {
    archive = await startArchive({ MAX_UPLOAD_BYTES: '65536' });
  });
  afterAll(async () => {
    await archive.close();
  });

  const body = fc.oneof(arbitraryBytes, arbitraryText, ...Object.keys(FIXTURES).map((plugin) => mutatedFixture(plugin)));
  const contentType = fc.constantFrom('application/octet-stream', 'text/plain', 'application/xml', 'text/plain; charset=utf-16', 'multipart/form-data', 'application/x-www-form-urlencoded', 'x/y; q=?');
  const format = fc.option(
    fc.oneof(fc.constantFrom('GoFans/1.1', 'GoFans/2.2', 'BARS/1', 'VK Dots/code', 'VK Dots/1.0', 'ViaThinkSoft Peg Solitaire/2', 'Dots Server/204', 'x/y', '/', 'GoFans'), fc.string({ maxLength: 20 })),
    { nil: undefined },
  );
  const filename = fc.option(fc.string({ unit: 'binary', maxLength: 30 }), { nil: undefined });

  it('never answers 5xx, answers every error as problem+json, and stores only what it acknowledged', async () => {
    const acknowledged = new Set<number>();
    await fc.assert(
      fc.asyncProperty(body, contentType, format, filename, async (bytes, type, formatName, name) => {
        const query = new URLSearchParams();
        if (formatName !== undefined) query.set('format', formatName);
        if (name !== undefined) query.set('filename', name);
        const response = await post(archive, `/games?${query}`, new Uint8Array(bytes), { 'Content-Type': type });
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400) {
          expect(response.headers.get('content-type')).toContain('application/problem+json');
          const problem = await response.json();
          expect(typeof problem.code).toBe('string');
        } else {
          const game = await response.json();
          if (response.status === 201) acknowledged.add(game.id);
          else expect(acknowledged.has(game.id)).toBe(true);
        }
      }),
      { numRuns: 150 * FUZZ_SCALE },
    );
    let stored = 0;
    let cursor: string | null = null;
    do {
      const page: { items: unknown[]; next: string | null } = await (await fetch(`${archive.baseUrl}/games?limit=100${cursor ? `&cursor=${cursor}` : ''}`)).json();
      stored += page.items.length;
      cursor = page.next;
    } while (cursor);
    expect(stored).toBe(acknowledged.size);
  });
});
