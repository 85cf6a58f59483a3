import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { post, startArchive, TestArchive } from './archive-harness.js';

/** GET /games/{id}/board.svg: the picture of a position, its cache headers and its refusals. */
const fixture = (path: string): Buffer => readFileSync(new URL(`../${path}`, import.meta.url));

describe('board pictures', () => {
  let archive: TestArchive;
  let go: number;

  beforeAll(async () => {
    archive = await startArchive();
    // GoFans example 2.2: three plies; black's third stone at 1,0 takes white's 0,0.
    go = ((await (await post(archive, '/games?filename=ex.xml', fixture('fixtures/gofans-examples/ex_2.2.xml'))).json()) as { id: number }).id;
  });
  afterAll(async () => {
    await archive.close();
  });

  const picture = (id: number, query = '', headers: Record<string, string> = {}) => fetch(`${archive.baseUrl}/games/${id}/board.svg${query}`, { headers });

  it('draws the final position by default: valid SVG, a title naming the game and ply, cacheable', async () => {
    const answer = await picture(go);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(answer.headers.get('etag')).toMatch(/^"board-[0-9a-f]+"$/);
    expect(answer.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const svg = await answer.text();
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toMatch(/href=|url\(/);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(svg) as { svg: { title: string; width: string } };
    expect(doc.svg.title).toContain(`Game ${go}`);
    expect(doc.svg.title).toContain('after ply 3 of 3');
    expect(doc.svg.width).toBe('480');
    expect(svg).toContain('captures: black 1, white 0');
  });

  it('answers 304 to its ETag, and another ETag for another ply or size', async () => {
    const first = await picture(go, '?ply=2&size=200');
    const etag = first.headers.get('etag')!;
    expect(first.status).toBe(200);
    const again = await picture(go, '?ply=2&size=200', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect((await picture(go, '?ply=1&size=200')).headers.get('etag')).not.toBe(etag);
    expect((await picture(go, '?ply=2&size=201')).headers.get('etag')).not.toBe(etag);
  });

  it('refuses a ply past the end, a bad size or orientation with 400', async () => {
    for (const query of ['?ply=4', '?ply=-1', '?size=10', '?size=5000', '?orientation=red', '?coordinates=maybe']) {
      const answer = await picture(go, query);
      expect([query, answer.status]).toEqual([query, 400]);
      expect(((await answer.json()) as { code: string }).code).toBe('request.invalid');
    }
  });

  it('answers 409 for a game stored but not indexed, 404 for no game', async () => {
    const stored = ((await (await post(archive, '/games?filename=notes.txt', Buffer.from('just some notes\n'), { 'Content-Type': 'text/plain' })).json()) as { id: number; status: string });
    expect(stored.status).toBe('stored');
    const answer = await picture(stored.id);
    expect(answer.status).toBe(409);
    expect(((await answer.json()) as { code: string }).code).toBe('game.not_indexed');
    expect((await picture(999999)).status).toBe(404);
  });

  it('draws the BARS demonstration game from black\'s side', async () => {
    const bars = ((await (await post(archive, '/games?filename=demo.bars', fixture('e2e/fixtures/demonstration.bars'))).json()) as { id: number }).id;
    const answer = await picture(bars, '?ply=3&orientation=black&coordinates=false');
    expect(answer.status).toBe(200);
    const svg = await answer.text();
    expect(XMLValidator.validate(svg)).toBe(true);
    expect(svg).not.toContain('class="coordinates"');
    // After 2. f4:d6 the man on e5 (x 4, y 3) is shown taken.
    expect(svg).toMatch(/class="piece black man captured" data-x="4" data-y="3"/);
  });
});
