import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { chromiumThere, expectFitsPhone, needViewer, README_PICTURES, takeReadmePicture, watchedPage } from './browser-support.js';
import { describeIfThere } from '../support/optional.js';

/**
 * The viewer's pattern page (#/patterns) driven in Chromium: a corner pattern drawn by clicks on a
 * 9×9 board, searched, and the games written here found where they were written to hold it.
 * Skipped without Chromium unless TABULA_REQUIRE_BROWSER=1, as the viewer's other browser tests.
 * TABULA_README_PICTURES=1 also writes docs/images/patterns.png.
 */
const ARTIFACTS = new URL('../artifacts/', import.meta.url);

/*
 * Written for this test (SGF columns and rows: a = 0 … i = 8, from the top left).
 * CORNER: black gc (6,2), white fc (5,2): in the top-right corner, black with white to its left —
 * the pattern drawn below (black on the third column and row of the top-left corner, white beside it
 * towards the middle) seen in a mirror, first there after ply 2. It lies on columns 5–8, rows 0–2.
 * Then black cg (2,6) far off, white gd (6,3): the first move next to it, just under black's stone —
 * in the pattern as drawn, column 2, row 3 (one below its last row).
 * SWAPPED: the same shape with the colours exchanged (white gc, black fc), complete after ply 3.
 * MIDDLE: the same two stones in the middle of the board, on no corner.
 */
const CORNER = '(;GM[1]FF[4]SZ[9]PB[Corner Black]PW[Corner White]RE[B+R];B[gc];W[fc];B[cg];W[gd])';
const SWAPPED = '(;GM[1]FF[4]SZ[9]PB[Swapped Black]PW[Swapped White]RE[W+R];B[cg];W[gc];B[fc];W[ee])';
const MIDDLE = '(;GM[1]FF[4]SZ[9]PB[Middle Black]PW[Middle White]RE[B+R];B[ee];W[de])';

describeIfThere('the pattern page in Chromium', chromiumThere, () => {
  let archive: TestArchive;
  let browser: Browser;
  let page: Page;
  let complaints: string[] = [];
  const ids: Record<string, number> = {};
  // The one refusal a test asks for, which Chromium reports on its console.
  let refusalAsked = false;

  const upload = async (name: string, bytes: Buffer | string): Promise<number> => {
    const answer = await post(archive, `/games?filename=${encodeURIComponent(name)}`, Buffer.from(bytes), { 'Content-Type': 'application/octet-stream' });
    expect([name, answer.status]).toEqual([name, 201]);
    return ((await answer.json()) as { id: number }).id;
  };
  /** Waits until the results shown are those of the search the location names. */
  const searched = () => page.waitForFunction(() => document.querySelector('[data-search]')?.getAttribute('data-search') === location.hash);
  const point = (x: number, y: number) => page.locator(`.pattern-board button.pt[data-x="${x}"][data-y="${y}"]`);
  /** The games listed: each link's game and ply, and the area and ply its picture frames. */
  const listed = () =>
    page.locator('.pattern-results .result').evaluateAll((items) =>
      items.map((item) => {
        const picture = new URL(item.querySelector('img')!.getAttribute('src')!, 'http://x');
        return { link: item.querySelector('a')!.getAttribute('href'), ply: picture.searchParams.get('ply'), area: picture.searchParams.get('area') };
      }),
    );

  beforeAll(async () => {
    needViewer();
    mkdirSync(ARTIFACTS, { recursive: true });
    archive = await startArchive();
    ids.corner = await upload('corner.sgf', CORNER);
    ids.swapped = await upload('swapped.sgf', SWAPPED);
    ids.middle = await upload('middle.sgf', MIDDLE);
    ({ browser, page, complaints } = await watchedPage(() => refusalAsked));
  });

  afterAll(async () => {
    await browser?.close();
    await archive?.close();
  });

  it('draws a corner pattern by clicks, finds the game that holds it, framed at its first ply, with the move played next', async () => {
    await page.goto(`${archive.baseUrl}/`);
    await page.getByRole('link', { name: 'Patterns' }).click();
    await page.waitForFunction(() => location.hash === '#/patterns');
    await page.getByLabel('Board', { exact: true }).fill('9');
    await page.getByLabel('Pattern width').fill('4');
    await page.getByLabel('Pattern height').fill('3');
    // The rectangle lies in the top-left corner: its 12 points are buttons, the rest of the 81 are not.
    await page.waitForFunction(() => document.querySelectorAll('.pattern-board .pt').length === 81 && document.querySelectorAll('.pattern-board button.pt').length === 12);
    // Black on column 2, row 2; white beside it: one click makes X, two make O.
    await point(2, 2).click();
    await point(3, 2).click();
    await point(3, 2).click();
    await expect(point(3, 2).getAttribute('aria-label')).resolves.toBe('pattern column 4, row 3: O');
    await expect(page.locator('.pattern-rows code').innerText()).resolves.toBe('["....","....","..XO"]');
    await page.getByRole('button', { name: 'Search' }).click();
    await searched();
    expect(new URL(page.url()).hash).toBe('#/patterns?family=go&board=9&anchor=corner&colors=same&rows=....%2F....%2F..XO');

    await expect(page.locator('#pattern-results').innerText()).resolves.toBe('1 game with the pattern');
    expect(await listed()).toEqual([{ link: `#/games/${ids.corner}?ply=2`, ply: '2', area: '5,0,4,3' }]);
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('.pattern-results img')].every((img) => img.complete && img.naturalWidth > 0));
    // The move played next: white, one row under the pattern's black stone, in one game (black won it).
    const rows = await page.locator('.continuations tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent!.trim())));
    expect(rows).toEqual([['A ○ O', '1', 'black 1', '—', `#${ids.corner}`]]);
    // ... lettered on the drawing at that point (column 2, row 3 of the board: the corner's rectangle starts at 0, 0).
    await expect(page.locator('.pattern-board .pt[data-x="2"][data-y="3"] .letter').innerText()).resolves.toBe('A');
    await page.screenshot({ path: new URL('patterns.png', ARTIFACTS).pathname, fullPage: true });

    // With the colours either way, the game that holds it with white and black exchanged is found too (newest first).
    await page.getByLabel('Colours').selectOption('any');
    await page.getByRole('button', { name: 'Search' }).click();
    await searched();
    await expect(page.locator('#pattern-results').innerText()).resolves.toBe('2 games with the pattern');
    expect(await listed()).toEqual([
      { link: `#/games/${ids.swapped}?ply=3`, ply: '3', area: '5,0,4,3' },
      { link: `#/games/${ids.corner}?ply=2`, ply: '2', area: '5,0,4,3' },
    ]);
    await expect(page.locator('.pattern-results .result').first().innerText()).resolves.toContain('colours swapped');

    // Anywhere on the board, the middle game's two stones are the pattern's too (its empty points all on the board).
    await page.getByLabel('Where').selectOption('anywhere');
    await page.getByRole('button', { name: 'Search' }).click();
    await searched();
    await expect(page.locator('#pattern-results').innerText()).resolves.toBe('3 games with the pattern');

    // A game opens at the ply it was found.
    await page.locator(`.pattern-results a[href="#/games/${ids.corner}?ply=2"]`).click();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.board img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect(new URL((await page.locator('.board img').getAttribute('src'))!, archive.baseUrl).searchParams.get('ply')).toBe('2');
  });

  it('says what is wrong with a pattern without stones, in the archive\'s words', async () => {
    refusalAsked = true;
    await page.goto(`${archive.baseUrl}/#/patterns?family=go&board=9&anchor=corner&colors=same&rows=...%2F...`);
    await searched();
    await expect(page.locator('.problem').innerText()).resolves.toContain('pattern.no_stones');
    refusalAsked = false;
  });

  it('fits a phone-sized screen without horizontal scrolling, a 39×32 Dots field included', async () => {
    await expectFitsPhone(page, archive.baseUrl, ['#/patterns?family=go&board=9&anchor=corner&colors=any&rows=....%2F....%2F..XO', '#/patterns?family=dots&board=39x32&anchor=anywhere&colors=same&rows=X.%2F.O'], searched);
    await expect(page.locator('.pattern-board .pt').count()).resolves.toBe(39 * 32);
  });

  (README_PICTURES ? it : it.skip)('takes the README picture of the pattern page (only with TABULA_README_PICTURES=1)', async () => {
    // GNU Go's 19×19 regression games (test/fixtures/realdata), a black stone on a 4-4 point with its corner empty.
    const folder = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);
    const games = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((path) => path.includes('19x19') && path.endsWith('.sgf'));
    for (const path of games) await upload(path.split('/').pop()!, readFileSync(new URL(path, folder)));
    const rows = ['......', '......', '......', '...X..', '......', '......'];
    await page.goto(`${archive.baseUrl}/#/patterns?family=go&board=19&anchor=corner&colors=any&rows=${encodeURIComponent(rows.join('/'))}`);
    await searched();
    await takeReadmePicture(page, '.pattern-results img', 'patterns.png');
  });

  it('finds Russian draughts games by squares clicked on the 8×8 board and by material bounds', async () => {
    // After 1. c3-d4 a white man stands on d4 and c3 is empty; the other game never puts a white man on d4.
    const pdn = (moves: string) => `[Event "Browser"]\n[White "W"]\n[Black "B"]\n[Result "*"]\n[GameType "25"]\n\n${moves} *\n`;
    const d4 = await upload('d4.pdn', pdn('1. c3-d4 f6-g5'));
    const f4 = await upload('f4.pdn', pdn('1. e3-f4 f6-e5'));
    await page.goto(`${archive.baseUrl}/#/patterns?family=checkers`);
    const square = (name: string) => page.getByRole('button', { name: new RegExp(`^${name}: `) });
    // A dark square cycles: anything, white man, white king, black man, black king, empty.
    await square('d4').click();
    await expect(square('d4').getAttribute('aria-label')).resolves.toBe('d4: white man');
    for (let i = 0; i < 5; i++) await square('c3').click();
    await expect(square('c3').getAttribute('aria-label')).resolves.toBe('c3: empty');
    await page.getByRole('button', { name: 'Search' }).click();
    await searched();
    await expect(page.locator('.pattern-results .result a').evaluateAll((links) => links.map((link) => link.getAttribute('href')))).resolves.toEqual([`#/games/${d4}?ply=1`]);
    // Material alone: twelve white men is the start, where both games are.
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator('input[name="wm-lo"]').fill('12');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => location.hash.includes('wm=12-'));
    await searched();
    const found = await page.locator('.pattern-results .result a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(found.sort()).toEqual([`#/games/${d4}?ply=0`, `#/games/${f4}?ply=0`].sort());
  });

  it('logged no console error or warning and threw nothing', () => {
    expect(complaints).toEqual([]);
  });
});
