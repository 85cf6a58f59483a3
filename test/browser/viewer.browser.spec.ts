import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { viewerDirectory } from '../../src/common/viewer.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { describeIfThere } from '../support/optional.js';
import type { Requirement } from '../support/optional.js';
import { FOX_GAMES, inShared, realdataMissing, realdataPath } from '../support/realdata.js';
import { turnedGoSgf } from '../support/positions/turned-sgf.js';

/**
 * The web viewer driven in Chromium (playwright-core, the system's browser): search, a game stepped
 * through by keys, buttons and slider, a raw download compared with the file, an upload by the file
 * picker, a player's page, a phone-sized screen; no console error or uncaught exception anywhere.
 * Screenshots go to test/artifacts/. Without Chromium the suite is skipped, saying so, unless
 * TABULA_REQUIRE_BROWSER=1 (CI), which makes that a failure. TABULA_README_PICTURES=1 also writes
 * docs/images/viewer.png and docs/images/board.svg, the pictures of the README and docs/viewer.md.
 */
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const fixturePath = (path: string): string => new URL(`../${path}`, import.meta.url).pathname;
const fixture = (path: string): Buffer => readFileSync(fixturePath(path));
// A 19×19 game in the Fox client's shape with Chinese names, written for the tests (test/fixtures/written/fox-like).
const FOX_LIKE = 'fixtures/written/fox-like/hundredths-650.sgf';
// docs/viewer.md's board picture shows a Fox game of the shared real data (TABULA_REALDATA) in its middle game.
const FOX_PICTURE = inShared(FOX_GAMES, 'fox-001.sgf');

function needViewer(): void {
  if (!existsSync(join(viewerDirectory(), 'index.html'))) throw new Error(`the viewer is not built (${viewerDirectory()}): run npm run build`);
}

const chromiumThere: Requirement = {
  what: 'Chromium',
  missing: existsSync(CHROMIUM) ? null : `no Chromium at ${CHROMIUM} (install it, e.g. apt-get install chromium, or set CHROMIUM_PATH)`,
  requiredBy: 'TABULA_REQUIRE_BROWSER',
};

describeIfThere('the web viewer in Chromium', chromiumThere, () => {
  let archive: TestArchive;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const complaints: string[] = [];
  const ids: Record<string, number> = {};

  const upload = async (name: string, bytes: Buffer, path = '/games'): Promise<number> => {
    const answer = await post(archive, `${path}?filename=${encodeURIComponent(name)}`, bytes, { 'Content-Type': 'application/octet-stream' });
    expect([name, answer.status]).toEqual([name, 201]);
    const body = (await answer.json()) as { id: number; games?: { gameId: number }[] };
    return body.games ? body.games[0].gameId : body.id;
  };

  /** The board picture's URL as the page shows it, and the ply it names. */
  const board = async (): Promise<{ src: string; ply: number }> => {
    const image = page.locator('.board img');
    // The picture has arrived and decoded (a broken image has no natural width).
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.board img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    const src = (await image.getAttribute('src'))!;
    return { src, ply: Number(new URL(src, archive.baseUrl).searchParams.get('ply')) };
  };
  /** Waits until the results shown are those of the search the location names. */
  const searched = () => page.waitForFunction(() => document.querySelector('[data-search]')?.getAttribute('data-search') === location.hash.replace(/^#\/\??/, ''));
  const currentMove = () => page.locator('.moves [aria-current="step"]').innerText();
  const shoot = (name: string) => page.screenshot({ path: new URL(name, ARTIFACTS).pathname, fullPage: true });
  const noHorizontalScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  beforeAll(async () => {
    needViewer();
    mkdirSync(ARTIFACTS, { recursive: true });
    archive = await startArchive();
    // GoFans example 2.2: Anna (black) and Bernd, three plies; black's third stone takes white's.
    ids.gofans = await upload('ex_2.2.xml', fixture('fixtures/gofans-examples/ex_2.2.xml'));
    ids.foxLike = await upload('hundredths-650.sgf', fixture(FOX_LIKE));
    // A GNU Go game in the repository.
    ids.gnugo = await upload('9x9-1.sgf', fixture('fixtures/realdata/go/gnugo_regression_games/9x9-1.sgf'));
    // A PDN database: kept whole, each game a game of its own.
    ids.pdn = await upload('ussr1947.pdn', fixture('fixtures/realdata/checkers/russian/ussr1947.pdn'), '/uploads');
    ids.vk = await upload('vk-full-game.txt', fixture('formats/plugins/vk-dots/fixtures/full-game.txt'));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    context = await browser.newContext({ viewport: { width: 1200, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') complaints.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => complaints.push(`page error: ${error.message}`));
  });

  afterAll(async () => {
    await browser?.close();
    await archive?.close();
  });

  it('opens at /, lists the games with their pictures and finds a player', async () => {
    await page.goto(`${archive.baseUrl}/`);
    await page.locator('.result').first().waitFor();
    // Every thumbnail of an indexed game is a picture that loaded.
    await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>('img.thumb')].every((img) => img.complete && img.naturalWidth > 0));
    await shoot('search.png');

    // Twenty to a page; "More" asks for the next with the cursor (the PDN database alone has more than twenty games).
    expect(await page.locator('.result').count()).toBe(20);
    await page.getByRole('button', { name: 'More' }).click();
    await page.waitForFunction(() => document.querySelectorAll('.result').length > 20);
    const shown = await page.locator('.result a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(new Set(shown).size).toBe(shown.length);

    // A family and an order: the draughts games of the database, oldest upload first, and only those.
    await page.locator('select[name="family"]').selectOption('checkers');
    await page.locator('select[name="sort"]').selectOption('uploaded');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => location.hash === '#/?family=checkers&sort=uploaded');
    await searched();
    const draughts = await page.locator('.result').allInnerTexts();
    expect(draughts.length).toBe(20);
    for (const text of draughts) expect(text).toContain('Russian draughts');
    // The database's games in file order: its first game first.
    await expect(page.locator('.result a').first().getAttribute('href')).resolves.toBe(`#/games/${ids.pdn}`);
    // The form shows the search it made.
    await expect(page.locator('select[name="family"]').inputValue()).resolves.toBe('checkers');
    await expect(page.locator('select[name="sort"]').inputValue()).resolves.toBe('uploaded');
    await page.getByRole('link', { name: 'Clear' }).click();
    await page.waitForFunction(() => location.hash === '#/');

    await page.getByRole('searchbox', { name: 'Player' }).fill('anna');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => location.hash === '#/?player=anna');
    await searched();
    expect(await page.locator('.result').count()).toBe(1);
    await expect(page.locator('.result').innerText()).resolves.toContain('Anna');
    await expect(page.getByRole('searchbox', { name: 'Player' }).inputValue()).resolves.toBe('anna');
  });

  it('opens a game and steps through it with the keys, the buttons and the slider', async () => {
    await page.locator('.result a').first().click();
    await page.waitForFunction((id) => location.hash === `#/games/${id}`, ids.gofans);
    // It opens at the final position: ply 3 of 3, the third move marked.
    const last = await board();
    expect(last.ply).toBe(3);
    expect(await currentMove()).toMatch(/^3\./);

    await page.keyboard.press('ArrowLeft');
    const before = await board();
    expect(before.ply).toBe(2);
    expect(await currentMove()).toMatch(/^2\./);
    // The pictures differ: at ply 2 white's stone still stands, at ply 3 it is taken.
    const [svgBefore, svgLast] = await Promise.all([before.src, last.src].map(async (src) => (await fetch(new URL(src, archive.baseUrl))).text()));
    expect(svgBefore).not.toBe(svgLast);
    expect(svgLast).toContain('captures: black 1, white 0');
    expect(svgBefore).toContain('captures: black 0, white 0');

    await page.keyboard.press('ArrowRight');
    expect((await board()).ply).toBe(3);
    await page.keyboard.press('Home');
    expect((await board()).ply).toBe(0);
    expect(await currentMove()).toBe('start');
    await page.getByRole('button', { name: 'Next move' }).click();
    expect((await board()).ply).toBe(1);
    await page.getByRole('button', { name: 'Last position' }).click();
    expect((await board()).ply).toBe(3);

    await page.locator('.slider input').fill('1');
    expect((await board()).ply).toBe(1);
    expect(await currentMove()).toMatch(/^1\./);
    // A move of the list goes there.
    await page.locator('.moves button', { hasText: /^2\./ }).click();
    expect((await board()).ply).toBe(2);
    // The verdict's note at ply 3 (Anna resigned after a stone, not a pass) marks that move, and leads to it.
    await expect(page.locator('.moves button.flagged').allInnerTexts()).resolves.toEqual([expect.stringMatching(/^3\./)]);
    await page.locator('.verdict').getByRole('button', { name: 'ply 3' }).click();
    expect((await board()).ply).toBe(3);
    await page.keyboard.press('ArrowLeft');
    await shoot('game.png');
  });

  it('downloads the raw file, byte for byte', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'The file as uploaded' }).click()]);
    const bytes = readFileSync(await download.path());
    expect(bytes.equals(fixture('fixtures/gofans-examples/ex_2.2.xml'))).toBe(true);
    expect(download.suggestedFilename()).toBe('ex_2.2.xml');
  });

  it('downloads the game converted to SGF', async () => {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: /^As Smart Game Format, Go/ }).click()]);
    const sgf = readFileSync(await download.path(), 'utf8');
    // GoFans example 2.2 as SGF: Anna has black, and her first stone is on x 0, y 1 (SGF letters "ab").
    expect(sgf.startsWith('(;')).toBe(true);
    expect(sgf).toContain('PB[Anna]');
    expect(sgf).toContain(';B[ab]');
    expect(download.suggestedFilename()).toMatch(/\.sgf$/);
  });

  it("opens a player's statistics from the game", async () => {
    await page.getByRole('link', { name: 'Anna' }).click();
    await page.waitForFunction(() => location.hash === '#/players/anna');
    await page.locator('table.stats').waitFor();
    // Anna played one game, the GoFans example.
    const overall = await page.locator('table.stats tbody tr').first().locator('td').allInnerTexts();
    expect(overall[0]).toBe('1');
    await expect(page.locator('.result a').getAttribute('href')).resolves.toBe(`#/games/${ids.gofans}`);
    await shoot('player.png');
  });

  it('uploads a file by the file picker, and the game appears', async () => {
    await page.goto(`${archive.baseUrl}/#/upload`);
    await page.locator('input[type="file"]').setInputFiles(fixturePath('fixtures/gofans-examples/ex_1.1.xml'));
    const link = page.locator('.uploaded a').first();
    await link.waitFor();
    const id = Number((await link.getAttribute('href'))!.replace('#/games/', ''));
    expect(id).toBeGreaterThan(ids.vk);
    // The archive has it, with the uploaded bytes.
    const raw = await fetch(`${archive.baseUrl}/games/${id}/raw`);
    expect(Buffer.from(await raw.arrayBuffer()).equals(fixture('fixtures/gofans-examples/ex_1.1.xml'))).toBe(true);
    // Dropped on the drop zone, a file goes the same way.
    await page.locator('.dropzone').evaluate((zone, text) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([text], 'dropped.xml', { type: 'application/xml' }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, fixture('fixtures/gofans-examples/ex_1.2.xml').toString('utf8'));
    await page.locator('.uploaded li', { hasText: 'dropped.xml' }).locator('a').waitFor();
    await shoot('upload.png');
    // ... and so does the search, newest first.
    await page.goto(`${archive.baseUrl}/#/`);
    await searched();
    await expect(page.locator('.result a').nth(1).getAttribute('href')).resolves.toBe(`#/games/${id}`);
  });

  it('fits a phone-sized screen without horizontal scrolling', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const hash of ['#/', `#/games/${ids.foxLike}`, `#/games/${ids.pdn}`, `#/games/${ids.vk}`, '#/players/anna', '#/upload']) {
      await page.goto(`${archive.baseUrl}/${hash}`);
      await page.waitForLoadState('networkidle');
      expect([hash, await noHorizontalScroll()]).toEqual([hash, true]);
    }
    await page.goto(`${archive.baseUrl}/#/games/${ids.vk}`);
    await board();
    await shoot('game-phone.png');
    await page.setViewportSize({ width: 1200, height: 900 });
  });

  it('shows each family\'s moves in the usual notation', async () => {
    await page.goto(`${archive.baseUrl}/#/games/${ids.gnugo}`);
    await board();
    // The GNU Go game opens with B[ee] on 9×9: column e is the 5th, E; row e is the 5th from the top of 9, so 5.
    const first = page.locator('.moves button').nth(1);
    await expect(first.innerText()).resolves.toBe('1. ● E5');
    await expect(first.getAttribute('title')).resolves.toBe('SGF ee');
    await page.goto(`${archive.baseUrl}/#/games/${ids.foxLike}`);
    await board();
    // The Fox-like game opens with B[pd]: column p is the 16th, Q (Go coordinates skip I); row d is the 4th from the top of 19, so 16.
    const opening = page.locator('.moves button').nth(1);
    await expect(opening.innerText()).resolves.toBe('1. ● Q16');
    await expect(opening.getAttribute('title')).resolves.toBe('SGF pd');
    await page.goto(`${archive.baseUrl}/#/games/${ids.pdn}`);
    await board();
    // The first move of the database's first game, as players write it.
    await expect(page.locator('.moves button').nth(1).innerText()).resolves.toMatch(/^1\.\s+[a-h][1-8][-:x][a-h][1-8]/);
    await page.goto(`${archive.baseUrl}/#/games/${ids.vk}`);
    expect((await board()).ply).toBeGreaterThan(0);
  });

  it('shows, at the start of a draughts game, the moves the database played next, and opens a game that played one', async () => {
    await page.goto(`${archive.baseUrl}/#/games/${ids.pdn}?ply=0`);
    expect((await board()).ply).toBe(0);
    // The start of Russian draughts: every game of the 1947 database reaches it (the two Go games and the VK game do not).
    const explorer = page.locator('.explorer');
    await explorer.getByText('153 games reach it').waitFor();
    const rows = explorer.locator('.explorer-moves tbody tr');
    const counts = await rows.locator('td:nth-child(2)').allInnerTexts();
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe(153);
    expect(counts.map(Number)).toEqual([...counts.map(Number)].sort((a, b) => b - a));
    // The most played first move, written c3-d4 style, opens a game that played it, after that move.
    const top = rows.first().locator('a');
    const move = await top.innerText();
    expect(move).toMatch(/^[a-h][1-8]-[a-h][1-8]$/);
    await top.click();
    await page.waitForFunction(() => /^#\/games\/\d+\?ply=1$/.test(location.hash));
    expect((await board()).ply).toBe(1);
    const [from, to] = move.split('-');
    await expect(page.locator('.moves [aria-current="step"]').innerText()).resolves.toMatch(new RegExp(`${from}.${to}`));
    expect(await noHorizontalScroll()).toBe(true);
  });

  it("lists a game's other files on its page, and marks the copy in search results", async () => {
    // The 9x9 GNU Go game turned a quarter by hand: another file of the same game.
    const turned = await upload('9x9-1-turned.sgf', Buffer.from(turnedGoSgf(fixture('fixtures/realdata/go/gnugo_regression_games/9x9-1.sgf').toString('latin1'), 9, 'rotate90'), 'latin1'));
    await page.goto(`${archive.baseUrl}/#/games/${ids.gnugo}`);
    const relatives = page.locator('section.relatives');
    await relatives.locator('li').first().waitFor();
    await expect(relatives.locator('li').allInnerTexts()).resolves.toEqual([expect.stringMatching(new RegExp(`the same game .*rotate90 · #${turned}$`))]);
    await page.goto(`${archive.baseUrl}/#/?family=go&boardSize=9&unique=true`);
    await page.locator('.results li').first().waitFor();
    const listed = await page.locator('.results li a').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(listed).toContain(`#/games/${ids.gnugo}`);
    expect(listed).not.toContain(`#/games/${turned}`);
    await page.goto(`${archive.baseUrl}/#/?family=go&boardSize=9`);
    await expect(page.locator('.results li', { hasText: `#${turned}` }).locator('.copies').innerText()).resolves.toBe(`a copy of #${ids.gnugo}`);
  });

  (process.env.TABULA_README_PICTURES === '1' ? it : it.skip)('takes the README pictures (only with TABULA_README_PICTURES=1)', async () => {
    // The page of a 19×19 game with Latin names (this machine's Chromium may have no CJK font for the Fox game's).
    const olympiad = await upload('crazystone-gnu.sgf', fixture('fixtures/realdata/go/gnugo_regression_games/olympiad2006/19x19/crazystone-gnu.sgf'));
    await page.goto(`${archive.baseUrl}/#/games/${olympiad}`);
    await board();
    await page.locator('.slider input').fill('80');
    expect((await board()).ply).toBe(80);
    await page.locator('.slider input').blur();
    const images = new URL('../../docs/images/', import.meta.url);
    mkdirSync(images, { recursive: true });
    await page.screenshot({ path: new URL('viewer.png', images).pathname });
    // The board picture: a Fox game in its middle game, or the Olympiad game where the shared real data is missing.
    const missing = realdataMissing(FOX_PICTURE);
    if (missing !== null) console.warn(`board.svg shows crazystone-gnu.sgf instead of a Fox game: ${missing}`);
    const pictured = missing === null ? await upload('fox-001.sgf', readFileSync(realdataPath(FOX_PICTURE))) : olympiad;
    const svg = await fetch(`${archive.baseUrl}/games/${pictured}/board.svg?ply=60&size=480`);
    writeFileSync(new URL('board.svg', images), await svg.text());
  });

  it('finds games by the words of their comments, and opens a hit at its ply with its comment shown', async () => {
    const commented = '(;GM[1]FF[4]CA[UTF-8]SZ[9]PB[Kim]PW[Lee]GC[A teaching game];B[ee];W[gc]C[White <b>tries</b> a ladder here];B[cg];W[gg]C[Лестница не работает])';
    const id = await upload('commented.sgf', Buffer.from(commented));
    await page.goto(`${archive.baseUrl}/`);
    await page.getByRole('searchbox', { name: 'Words' }).fill('ladders');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => location.hash === '#/?text=ladders');
    await searched();
    expect(await page.locator('.result').count()).toBe(1);
    const hits = page.getByRole('list', { name: 'Where the words are written' });
    // The hit's text as written — the file's markup shown as text, not made bold — and the word found marked.
    await expect(hits.innerText()).resolves.toBe('ply 2: White <b>tries</b> a ladder here');
    await expect(hits.locator('mark').allInnerTexts()).resolves.toEqual(['ladder']);
    // A Russian word in another form finds the Russian comment.
    await page.goto(`${archive.baseUrl}/#/?text=${encodeURIComponent('лестницу')}`);
    await searched();
    await expect(page.getByRole('list', { name: 'Where the words are written' }).innerText()).resolves.toBe('ply 4: Лестница не работает');

    await page.getByRole('link', { name: 'ply 4' }).click();
    await page.waitForFunction((game) => location.hash === `#/games/${game}?ply=4`, id);
    expect((await board()).ply).toBe(4);
    await expect(page.getByRole('region', { name: 'Comments at ply 4' }).innerText()).resolves.toBe('Лестница не работает');
    // The commented moves are marked in the list; the start shows the game's own comment.
    await expect(page.locator('.moves .commented').count()).resolves.toBe(2);
    await page.keyboard.press('Home');
    await expect(page.getByRole('region', { name: 'Comments on the game' }).innerText()).resolves.toBe('A teaching game');
    await shoot('texts.png');
  });

  it('tags a game on its page and finds the game by its tag', async () => {
    await page.goto(`${archive.baseUrl}/#/games/${ids.gnugo}`);
    await page.getByRole('button', { name: 'Edit tags' }).click();
    await page.getByRole('textbox', { name: 'Tags, comma-separated' }).fill('studied, урок');
    await page.getByRole('button', { name: 'Save tags' }).click();
    await page.getByRole('link', { name: '#урок' }).waitFor();
    await page.getByRole('link', { name: '#урок' }).click();
    await page.waitForFunction(() => decodeURIComponent(location.hash) === '#/?tags=урок');
    await searched();
    await expect(page.locator('.result a').first().getAttribute('href')).resolves.toBe(`#/games/${ids.gnugo}`);
    expect(await page.locator('.result').count()).toBe(1);
    await expect(page.locator('.result .tags').innerText()).resolves.toBe('#studied #урок');
  });

  it('logged no console error or warning and threw nothing', () => {
    expect(complaints).toEqual([]);
  });
});

describeIfThere('the web viewer uploading to an archive that wants a token', chromiumThere, () => {
  let archive: TestArchive;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    needViewer();
    archive = await startArchive({ API_KEYS: 'viewer-test-key' });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true });
    page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });
  afterAll(async () => {
    await browser?.close();
    await archive?.close();
  });

  it("shows the archive's refusal without a token, and uploads with the token it keeps for the tab", async () => {
    await page.goto(`${archive.baseUrl}/#/upload`);
    const file = fixturePath('fixtures/gofans-examples/ex_2.1.xml');
    await page.locator('input[type="file"]').setInputFiles(file);
    // The problem's detail, as the archive words it.
    await expect(page.locator('.uploaded .problem').innerText()).resolves.toContain('needs a token with the scope games:write');

    // The token form has opened by itself; a key of API_KEYS is a token too.
    await page.getByLabel('Token', { exact: true }).fill('viewer-test-key');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.locator('.uploaded a').first().waitFor();
    const id = Number((await page.locator('.uploaded a').first().getAttribute('href'))!.replace('#/games/', ''));
    expect((await fetch(`${archive.baseUrl}/games/${id}`)).status).toBe(200);

    // Kept for this tab, in sessionStorage and nowhere else: a reload still has it.
    await page.reload();
    await expect(page.locator('.upload').innerText()).resolves.toContain('Uploads are sent with the token kept for this tab');
    expect(await page.evaluate(() => [sessionStorage.getItem('tabula.token'), localStorage.length])).toEqual(['viewer-test-key', 0]);
    expect(pageErrors).toEqual([]);
  });
});
