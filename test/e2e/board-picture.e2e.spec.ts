import { readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { jest } from '@jest/globals';
import { AnalysisPool } from '../../src/analysis/analysis-pool.js';
import { svgToPng } from '../../src/render/png.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';

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

  it('draws the same picture as PNG on request, with a tag of its own', async () => {
    const svg = await picture(go, '?ply=2&size=200');
    const answer = await picture(go, '?ply=2&size=200&format=png');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await answer.arrayBuffer());
    // The PNG signature (RFC 2083 §3.1), then the IHDR chunk: length 13, type, width and height big-endian.
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBe(200);
    // As high as the SVG says it is (the board and its caption line).
    const svgHeight = Number(/<svg[^>]* height="(\d+)"/.exec(await svg.text())![1]);
    expect(svgHeight).toBeGreaterThan(200);
    expect(png.readUInt32BE(20)).toBe(svgHeight);
    const etag = answer.headers.get('etag')!;
    expect(etag).toMatch(/^"board-[0-9a-f]+"$/);
    expect(etag).not.toBe(svg.headers.get('etag'));
    const again = await picture(go, '?ply=2&size=200&format=png', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    // The SVG's tag is not the PNG's: a client holding the SVG gets the PNG in full.
    expect((await picture(go, '?ply=2&size=200&format=png', { 'If-None-Match': svg.headers.get('etag')! })).status).toBe(200);
    expect((await picture(go, '?format=svg')).headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });

  it('draws the PNG on an analysis thread, the same bytes as drawn on the event loop', async () => {
    const pool = archive.app.get(AnalysisPool);
    const spy = jest.spyOn(pool, 'png');
    try {
      const svg = await (await picture(go, '?ply=2&size=300')).text();
      const png = Buffer.from(await (await picture(go, '?ply=2&size=300&format=png')).arrayBuffer());
      expect(spy).toHaveBeenCalledTimes(1);
      expect(spy).toHaveBeenCalledWith(svg);
      expect(png.equals(await svgToPng(svg))).toBe(true);
    } finally {
      spy.mockRestore();
    }
  });

  it('frames an area of points, cut to the board, with a tag of its own', async () => {
    // A point is 40 units apart from the next; the board's edge 20 units (no coordinates) or 40 (with them) from the first point.
    const rect = async (query: string) => {
      const svg = await (await picture(go, query)).text();
      const found = /<rect class="area" data-left="(\d+)" data-top="(\d+)" data-width="(\d+)" data-height="(\d+)" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg);
      return found ? found.slice(1).map(Number) : null;
    };
    // Points 0–1 of columns and rows: from half a unit before the first to half a unit after the second.
    expect(await rect('?ply=3&coordinates=false&area=0,0,2,2')).toEqual([0, 0, 2, 2, 0, 0, 80, 80]);
    expect(await rect('?ply=3&area=0,0,2,2')).toEqual([0, 0, 2, 2, 20, 20, 80, 80]);
    // Seen from white's side the corner 0,0 is drawn at the bottom right: points 7–8 of the view.
    expect(await rect('?ply=3&area=0,0,2,2&orientation=white')).toEqual([0, 0, 2, 2, 300, 300, 80, 80]);
    // Columns 3–4, rows 7–8 of the 9×9 board: a rectangle asked 5 high is cut to the two rows left.
    expect(await rect('?ply=3&coordinates=false&area=3,7,2,5')).toEqual([3, 7, 2, 2, 120, 280, 80, 80]);
    expect(await rect('?ply=3&area=9,0,1,1')).toBeNull();
    expect(await rect('?ply=3')).toBeNull();
    const plain = (await picture(go, '?ply=3')).headers.get('etag');
    const framed = (await picture(go, '?ply=3&area=0,0,2,2')).headers.get('etag');
    expect(framed).not.toBe(plain);
    expect((await picture(go, '?ply=3&area=0,0,2,3')).headers.get('etag')).not.toBe(framed);
  });

  it('refuses a ply past the end, a bad size, orientation or area with 400', async () => {
    for (const query of ['?ply=4', '?ply=-1', '?size=10', '?size=5000', '?orientation=red', '?coordinates=maybe', '?format=gif', '?area=1,2,3', '?area=0,0,0,2', '?area=a,b,c,d', '?area=-1,0,1,1']) {
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
