import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { TransformName } from '../../src/rules/symmetry.js';
import { post, startArchive, TestArchive } from '../support/archive-harness.js';
import { chromiumThere, expectFitsPhone, needViewer, README_PICTURES, takeReadmePicture, watchedPage } from './browser-support.js';
import { describeIfThere } from '../support/optional.js';
import { sabakiRoot } from '../support/go/sabaki-sgf.js';
import { replay } from '../support/positions/go-replay.js';
import type { Position, Replayed } from '../support/positions/go-replay.js';
import { turnedPoint, turnRows } from '../support/positions/grids.js';

/**
 * The viewer's position page (#/positions) driven in Chromium: a board typed in by clicks on the
 * editor, searched, and the games and moves listed against a brute force written here. Go: the GNU Go
 * 9×9 games of test/fixtures/realdata, every one replayed by @sabaki/go-board (not the archive's
 * engine); the board clicked in is one they reach, and the games listed must be exactly those whose
 * board after some ply is it under one of the 8 symmetries with the same side to move, each at its
 * first such ply, the explorer's most played move counted the same. Draughts: the start position,
 * which every game of the 1947 PDN database that starts from it reaches (counted from the file's FEN
 * tags). A refused board shows the archive's words. TABULA_README_PICTURES=1 also writes
 * docs/images/positions.png.
 */
const ARTIFACTS = new URL('../artifacts/', import.meta.url);
const GO_FOLDER = new URL('../fixtures/realdata/go/gnugo_regression_games/', import.meta.url);
const PDN_FILE = new URL('../fixtures/realdata/checkers/russian/ussr1947.pdn', import.meta.url);
const NAMES: TransformName[] = ['identity', 'rotate90', 'rotate180', 'rotate270', 'mirrorX', 'mirrorY', 'transpose', 'antiTranspose'];
/** The earliest and latest ply the brute force picks the searched position from. */
const FIRST_PLY = 3;
const LAST_PLY = 10;

/** A board and its side to move as one string (1 black, -1 white, 0 empty). */
const text = (position: Position): string => `${position.toMove}|${position.rows.map((row) => row.map((sign) => (sign === 1 ? 'X' : sign === -1 ? 'O' : '.')).join('')).join('/')}`;
/** The texts of a position under every symmetry of the board. */
const images = (position: Position): string[] => NAMES.map((name) => text({ rows: turnRows(position.rows, name), toMove: position.toMove }));

/** The games of a PDN file, and how many of them start from the initial position (no FEN tag, or a FEN of it). */
function draughtsStarts(pdn: string): { games: number; fromStart: number } {
  const games = pdn.split(/(?=\[Event )/).filter((part) => part.includes('[Event '));
  // The initial position, white to move: white men on squares 21–32, black men on 1–12.
  const squares = (list: string) =>
    list
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean)
      .flatMap((entry) => {
        const range = /^(\d+)-(\d+)$/.exec(entry);
        return range ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, i) => String(Number(range[1]) + i)) : [entry];
      })
      .sort()
      .join(',');
  const initial = `W|${squares('21-32')}|${squares('1-12')}`;
  const fromStart = games.filter((game) => {
    const fen = /\[FEN "([^"]*)"\]/.exec(game)?.[1];
    if (fen === undefined) return true;
    const [turn, white, black] = fen.replace(/\.\s*$/, '').split(':');
    return `${turn.trim()}|${squares(white.trim().slice(1))}|${squares(black.trim().slice(1))}` === initial;
  }).length;
  return { games: games.length, fromStart };
}

describeIfThere('the position page in Chromium', chromiumThere, () => {
  let archive: TestArchive;
  let browser: Browser;
  let page: Page;
  let complaints: string[] = [];
  /** The 9×9 games uploaded, by id, as @sabaki/go-board replays them. */
  const goGames = new Map<number, Replayed>();
  let draughts = { games: 0, fromStart: 0 };
  // The one refusal a test asks for, which Chromium reports on its console.
  let refusalAsked = false;
  /** The search the Go test made: docs/viewer.md's picture shows it again. */
  let goSearch = '';

  /** The game's id (the first game's, for a collection). */
  const upload = async (name: string, bytes: Buffer, path = '/games'): Promise<number> => {
    const answer = await post(archive, `${path}?filename=${encodeURIComponent(name)}`, bytes, { 'Content-Type': 'application/octet-stream' });
    expect([name, answer.status]).toEqual([name, 201]);
    const body = (await answer.json()) as { id: number; games?: { gameId: number }[] };
    return body.games ? body.games[0].gameId : body.id;
  };
  /** Waits until the results shown are those of the search the location names. */
  /** Resolves once the editor shows the draughts board (its 32 dark squares). */
  const draughtsBoard = () => page.waitForFunction(() => document.querySelectorAll('.position-board.draughts button.sq.dark').length === 32);
  const searched = () => page.waitForFunction(() => document.querySelector('[data-search]')?.getAttribute('data-search') === location.hash);
  /** Every game listed, "More" clicked until there is none: each link's game and ply. */
  const listedGames = async (): Promise<Map<number, number>> => {
    const more = page.getByRole('button', { name: 'More' });
    while (await more.isVisible()) {
      const shown = await page.locator('.position-results .result').count();
      await more.click();
      await page.waitForFunction((before) => document.querySelectorAll('.position-results .result').length > before || !document.querySelector('.position-found button'), shown);
    }
    const links = await page.locator('.position-results .result a').evaluateAll((items) => items.map((item) => item.getAttribute('href')!));
    const found = new Map<number, number>();
    for (const link of links) {
      const [, id, ply] = /^#\/games\/(\d+)\?ply=(\d+)$/.exec(link)!;
      expect(found.has(Number(id))).toBe(false);
      found.set(Number(id), Number(ply));
    }
    return found;
  };

  beforeAll(async () => {
    needViewer();
    mkdirSync(ARTIFACTS, { recursive: true });
    archive = await startArchive();
    // Every 9×9 GNU Go game once (a file held twice, byte for byte, is uploaded once).
    const seen = new Set<string>();
    const paths = readdirSync(GO_FOLDER, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.sgf'))
      .sort();
    for (const path of paths) {
      const bytes = readFileSync(new URL(path, GO_FOLDER));
      const hash = createHash('sha256').update(bytes).digest('hex');
      const replayed = replay(sabakiRoot(bytes));
      if (replayed === null || replayed.size !== 9 || seen.has(hash)) continue;
      seen.add(hash);
      goGames.set(await upload(path.split('/').pop()!, bytes), replayed);
    }
    const pdn = readFileSync(PDN_FILE);
    draughts = draughtsStarts(pdn.toString('latin1'));
    await upload('ussr1947.pdn', pdn, '/uploads');
    ({ browser, page, complaints } = await watchedPage(() => refusalAsked));
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await archive?.close();
  });

  it('finds, for a Go board clicked in, exactly the games that reach it, turned or not, and the move most played from it', async () => {
    expect(goGames.size).toBeGreaterThan(20);
    // Every game's boards, each written under all 8 symmetries: the least text names the position.
    const canonical = (position: Position) => images(position).sort()[0];
    const reached = new Map<string, Set<number>>();
    for (const [id, game] of goGames) {
      game.positions.slice(FIRST_PLY, LAST_PLY + 1).forEach((position) => {
        // A board that is its own image under a turn or mirror is passed over: its moves could be told apart only up to that symmetry.
        if (new Set(images(position)).size !== NAMES.length) return;
        const key = canonical(position);
        reached.set(key, (reached.get(key) ?? new Set()).add(id));
      });
    }
    // The searched board: the one most games reach (then the earlier text), as the first game to reach it has it.
    const [key] = [...reached].sort(([a, ga], [b, gb]) => gb.size - ga.size || (a < b ? -1 : 1))[0];
    const [sourceId, sourcePly] = [...goGames]
      .map(([id, game]) => [id, game.positions.findIndex((position) => canonical(position) === key)] as const)
      .find(([, ply]) => ply >= 0)!;
    const query = goGames.get(sourceId)!.positions[sourcePly];
    // The brute force: each game's first ply whose board is the query under a symmetry, with the same side to move ...
    const wanted = new Set(images(query));
    const want = new Map<number, number>();
    // ... and the move played from there, brought back to the query's orientation.
    const played = new Map<string, number>();
    for (const [id, game] of goGames) {
      const ply = game.positions.findIndex((position) => wanted.has(text(position)));
      if (ply < 0) continue;
      want.set(id, ply);
      const move = game.moves[ply];
      if (move === undefined) continue;
      const name = NAMES.find((n) => text({ rows: turnRows(query.rows, n), toMove: query.toMove }) === text(game.positions[ply]))!;
      let back = 'pass';
      if (move !== null) {
        for (let y = 0; y < 9; y++) for (let x = 0; x < 9; x++) if (turnedPoint(x, y, 9, 9, name).join() === move.join()) back = `${x},${y}`;
      }
      played.set(back, (played.get(back) ?? 0) + 1);
    }
    expect(want.size).toBeGreaterThan(1);

    await page.goto(`${archive.baseUrl}/`);
    await page.getByRole('link', { name: 'Positions' }).click();
    await page.waitForFunction(() => location.hash === '#/positions');
    await page.locator('select[name="size"]').selectOption('9');
    await page.waitForFunction(() => document.querySelectorAll('.position-board button.pt').length === 81);
    // One click makes a black stone, two a white one.
    for (let y = 0; y < 9; y++) {
      for (let x = 0; x < 9; x++) {
        const sign = query.rows[y][x];
        for (let clicks = sign === 1 ? 1 : sign === -1 ? 2 : 0; clicks > 0; clicks--) await page.locator(`.position-board button.pt[data-x="${x}"][data-y="${y}"]`).click();
      }
    }
    await page.locator('select[name="turn"]').selectOption(query.toMove === 1 ? 'B' : 'W');
    const drawn = await page.locator('.position-board button.pt').evaluateAll((points) => points.map((point) => point.querySelector('.st')?.classList[1] ?? '.').join(''));
    expect(drawn).toBe(query.rows.flat().map((sign) => (sign === 1 ? 'X' : sign === -1 ? 'O' : '.')).join(''));
    await page.getByRole('button', { name: 'Search' }).click();
    await searched();
    goSearch = new URL(page.url()).hash;
    expect(goSearch).toMatch(/^#\/positions\?family=go&size=9&board=/);

    await expect(page.locator('#position-results').innerText()).resolves.toBe(`${want.size} games reach the position`);
    expect(await listedGames()).toEqual(want);
    // The move most played next: as many games as the brute force's.
    const counts = await page.locator('.explorer-moves tbody tr td:nth-child(2)').allInnerTexts();
    expect(Number(counts[0])).toBe(Math.max(...played.values()));
    expect(counts.map(Number).reduce((a, b) => a + b, 0)).toBe([...played.values()].reduce((a, b) => a + b, 0));
    await page.screenshot({ path: new URL('positions.png', ARTIFACTS).pathname, fullPage: true });

    // A game opens at the ply it reaches the board.
    await page.locator(`.position-results a[href="#/games/${sourceId}?ply=${sourcePly}"]`).click();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('.board img');
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect(new URL((await page.locator('.board img').getAttribute('src'))!, archive.baseUrl).searchParams.get('ply')).toBe(String(sourcePly));
    // Its explorer links the board back to the editor: the same board, the same side to move.
    await page.getByRole('link', { name: 'Edit this position' }).click();
    await searched();
    expect(new URL(page.url()).hash).toBe(goSearch);
  });

  it('finds the draughts games that start from the start position, typed by its button, page after page', async () => {
    expect(draughts.fromStart).toBeGreaterThan(20);
    await page.goto(`${archive.baseUrl}/#/positions`);
    await page.locator('select[name="family"]').selectOption('checkers');
    // The board is re-rendered after each step returns: wait for the one it makes (a timeout fails the
    // test) — a click on Start position before the draughts board is there sets the Go board's.
    await draughtsBoard();
    const pieces = (white: number, black: number) =>
      page.waitForFunction((counts) => document.querySelectorAll('.position-board .pc.w').length === counts.white && document.querySelectorAll('.position-board .pc.b').length === counts.black, { white, black });
    await page.getByRole('button', { name: 'Clear' }).click();
    await pieces(0, 0);
    await expect(page.locator('.position-board .pc').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Start position' }).click();
    await pieces(12, 12);
    await expect(page.locator('.position-board .pc.w').count()).resolves.toBe(12);
    await expect(page.locator('.position-board .pc.b').count()).resolves.toBe(12);
    // White's men on the dark squares of ranks 3 to 1, black's on ranks 8 to 6, row by row from the top; white to move.
    await expect(page.locator('.pattern-rows code').innerText()).resolves.toBe('W:Wa3,c3,e3,g3,b2,d2,f2,h2,a1,c1,e1,g1:Bb8,d8,f8,h8,a7,c7,e7,g7,b6,d6,f6,h6');
    await page.getByRole('button', { name: 'Search' }).click();
    await searched();
    await expect(page.locator('#position-results').innerText()).resolves.toBe(`${draughts.fromStart} games reach the position`);
    const listed = await listedGames();
    expect(listed.size).toBe(draughts.fromStart);
    expect(new Set(listed.values())).toEqual(new Set([0]));
    const counts = await page.locator('.explorer-moves tbody tr td:nth-child(2)').allInnerTexts();
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.map(Number)).toEqual([...counts.map(Number)].sort((a, b) => b - a));
    await page.evaluate(() => scrollTo(0, 0));
    await page.screenshot({ path: new URL('positions-draughts.png', ARTIFACTS).pathname });
  });

  it("says what is wrong with a board the archive refuses, in the archive's words", async () => {
    refusalAsked = true;
    await page.goto(`${archive.baseUrl}/#/positions`);
    await page.locator('select[name="family"]').selectOption('checkers');
    await draughtsBoard();
    await page.getByRole('button', { name: 'Clear' }).click();
    // A white man on b8, the row where it would have been crowned.
    await page.locator('.position-board button.sq[data-x="1"][data-y="0"]').click();
    await expect(page.locator('.position-board button.sq[data-x="1"][data-y="0"]').getAttribute('aria-label')).resolves.toBe('b8: white man');
    await page.getByRole('button', { name: 'Search' }).click();
    await searched();
    const problem = await page.locator('.problem').innerText();
    expect(problem).toContain('would already be a king');
    expect(problem).toContain('position.invalid');
    refusalAsked = false;
  });

  it('fits a phone-sized screen without horizontal scrolling', async () => {
    await expectFitsPhone(page, archive.baseUrl, [goSearch, '#/positions?family=checkers'], () => page.locator('.position-board').waitFor());
  });

  (README_PICTURES ? it : it.skip)('takes the README picture of the position page (only with TABULA_README_PICTURES=1)', async () => {
    await page.goto(`${archive.baseUrl}/${goSearch}`);
    await searched();
    await takeReadmePicture(page, '.position-results img', 'positions.png');
  });

  it('logged no console error or warning and threw nothing', () => {
    expect(complaints).toEqual([]);
  });
});

/**
 * The explorer beside a game's board, by year and by rank, against seven 19×19 games written here.
 * Each starts B Q16, W D16 (a board no turn or mirror keeps), then black plays D4 or Q4; their days
 * and ranks are chosen so the counts below follow by hand:
 *
 * | game | played     | black, white | third move |
 * |------|------------|--------------|------------|
 * | 1    | 2001-05-01 | 5d, 4d       | D4 |
 * | 2    | 2001-06-01 | 2k, 1k       | D4 |
 * | 3    | 2003-01-01 | 6d, 6d       | Q4 |
 * | 4    | 2003-03-03 | 3d, 5d       | D4 |
 * | 5    | 2004-01-01 | 10k, 8k      | Q4 |
 * | 6    | (no date)  | 5d, 5d       | Q4 |
 * | 7    | 2004-07-07 | 1d, 2d       | D4 |
 *
 * All seven: 2001 2, 2002 0, 2003 2, 2004 2 (one undated); D4 4 games (2001 2, 2003 1, 2004 1),
 * average year 2002.25, average rank (5+4−1+0+3+5+1+2)/8 = 2.375 → 2d; Q4 3 games (2003 1, 2004 1),
 * average rank (6+6−9−7+5+5)/6 = 1 → 1d. Both players 4d or stronger: games 1, 3 and 6: D4 1 game
 * (rank 4.5 → 5d), Q4 2 (5.5 → 6d); by year 2001 1, 2002 0, 2003 1. The dictionary of that range
 * with moves of 2 games or more has Q4 and not D4.
 */
describeIfThere('the explorer by year and rank in Chromium', chromiumThere, () => {
  let archive: TestArchive;
  let browser: Browser;
  let page: Page;
  let complaints: string[] = [];
  const GAMES = [
    { date: '2001-05-01', black: '5d', white: '4d', third: 'dp' },
    { date: '2001-06-01', black: '2k', white: '1k', third: 'dp' },
    { date: '2003-01-01', black: '6d', white: '6d', third: 'pp' },
    { date: '2003-03-03', black: '3d', white: '5d', third: 'dp' },
    { date: '2004-01-01', black: '10k', white: '8k', third: 'pp' },
    { date: '', black: '5d', white: '5d', third: 'pp' },
    { date: '2004-07-07', black: '1d', white: '2d', third: 'dp' },
  ];
  /** A different fourth move in each game, so that none is a copy or a beginning of another. */
  const FOURTH = ['qj', 'jq', 'cj', 'jc', 'qn', 'nq', 'cn'];
  const ids: number[] = [];

  /** The moves table's rows: notation, games, average year and average rank. */
  const moveRows = () =>
    page.locator('.explorer .explorer-moves tbody tr').evaluateAll((rows) =>
      rows.map((row) => {
        const cells = [...row.querySelectorAll('td')].map((cell) => cell.textContent!.trim());
        return [cells[0], Number(cells[1]), cells[4], cells[5]];
      }),
    );
  /** The hidden table of the chart: each year's row as numbers. */
  const yearRows = () => page.locator('.year-table tbody tr').evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => Number(cell.textContent))));
  const yearHeads = () => page.locator('.year-table thead th').allInnerTexts();
  const waitForMoves = (counts: string) =>
    page.waitForFunction((want) => [...document.querySelectorAll('.explorer .explorer-moves tbody tr')].map((row) => `${row.children[0].textContent}:${row.children[1].textContent}`).join(' ') === want, counts);
  /** Whether the chart's canvas has a size and something drawn on it. */
  const chartDrawn = () =>
    page.locator('.year-chart canvas').evaluate((canvas: HTMLCanvasElement) => {
      const pixels = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
      let painted = 0;
      for (let i = 3; i < pixels.length; i += 4) if (pixels[i] !== 0) painted++;
      return { wide: canvas.width > 0 && canvas.height > 0, painted: painted > 100, label: canvas.getAttribute('aria-label') ?? '' };
    });

  beforeAll(async () => {
    needViewer();
    archive = await startArchive();
    for (const [i, game] of GAMES.entries()) {
      const sgf = `(;GM[1]FF[4]SZ[19]PB[Black ${i + 1}]PW[White ${i + 1}]BR[${game.black}]WR[${game.white}]${game.date ? `DT[${game.date}]` : ''};B[pd];W[dd];B[${game.third}];W[${FOURTH[i]}])`;
      const answer = await post(archive, `/games?filename=game${i + 1}.sgf`, Buffer.from(sgf), { 'Content-Type': 'application/octet-stream' });
      expect(answer.status).toBe(201);
      ids.push(((await answer.json()) as { id: number }).id);
    }
    ({ browser, page, complaints } = await watchedPage(() => false));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await archive?.close();
  });

  it("charts the position's games by year with a line for each move, and shows each move's average year and rank", async () => {
    await page.goto(`${archive.baseUrl}/#/games/${ids[0]}?ply=2`);
    await waitForMoves('D4:4 Q4:3');
    expect(await moveRows()).toEqual([
      ['D4', 4, '2002', '2d'],
      ['Q4', 3, '2004', '1d'],
    ]);
    await page.locator('.year-table').waitFor({ state: 'attached' });
    expect(await yearHeads()).toEqual(['Year', 'All games', 'D4', 'Q4']);
    expect(await yearRows()).toEqual([
      [2001, 2, 2, 0],
      [2002, 0, 0, 0],
      [2003, 2, 1, 1],
      [2004, 2, 1, 1],
    ]);
    await expect(page.locator('.year-chart figcaption').innerText()).resolves.toContain('1 without a date');
    const drawn = await chartDrawn();
    expect(drawn).toEqual({ wide: true, painted: true, label: expect.stringContaining('2001 to 2004') });
  });

  it('filters the explorer by a rank range kept in the URL, and downloads the dictionary of that range', async () => {
    await page.locator('.explorer select[name="rankMin"]').selectOption('4d');
    await page.waitForFunction(() => location.hash.includes('rankMin=4d'));
    await waitForMoves('Q4:2 D4:1');
    const filtered = [
      ['Q4', 2, '2003', '6d'],
      ['D4', 1, '2001', '5d'],
    ];
    expect(await moveRows()).toEqual(filtered);
    await page.waitForFunction(() => document.querySelectorAll('.year-table tbody tr').length === 3);
    expect(await yearRows()).toEqual([
      [2001, 1, 0, 1],
      [2002, 0, 0, 0],
      [2003, 1, 1, 0],
    ]);
    expect(await yearHeads()).toEqual(['Year', 'All games', 'Q4', 'D4']);
    expect(new URLSearchParams(new URL(page.url()).hash.split('?')[1]).get('rankMin')).toBe('4d');

    // The same link opens the same view.
    await page.reload();
    await waitForMoves('Q4:2 D4:1');
    expect(await moveRows()).toEqual(filtered);
    await expect(page.locator('.explorer select[name="rankMin"]').inputValue()).resolves.toBe('4d');
    // The position editor's link keeps the range.
    await expect(page.getByRole('link', { name: 'Edit this position' }).getAttribute('href')).resolves.toMatch(/^#\/positions\?.*&rankMin=4d$/);
    await page.locator('.year-chart canvas').waitFor();
    expect((await chartDrawn()).painted).toBe(true);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download as SGF dictionary' }).click()]);
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
    const sgf = Buffer.concat(chunks).toString('utf8');
    expect(sgf.startsWith('(;')).toBe(true);
    expect(sgf).toContain('B[pp]');
    expect(sgf).not.toContain('B[dp]');
  });

  it('shows the same on the position page for the board written in its URL, and downloads its dictionary by POST', async () => {
    // Black on Q16 (column 15, row 3), white on D16 (column 3, row 3), black to move.
    const rows = Array.from({ length: 19 }, (_, y) => Array.from({ length: 19 }, (_, x) => (y === 3 && x === 15 ? 'X' : y === 3 && x === 3 ? 'O' : '.')).join(''));
    const hash = `#/positions?${new URLSearchParams({ family: 'go', size: '19', board: rows.join('/'), turn: 'B', symmetry: 'all', rankMin: '4d' })}`;
    await page.goto(`${archive.baseUrl}/${hash}`);
    await page.waitForFunction(() => document.querySelector('#position-results')?.textContent === '3 games reach the position');
    await expect(page.locator('.position-form select[name="rankMin"]').inputValue()).resolves.toBe('4d');
    const counts = await page.locator('.explorer-moves tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent!.trim())));
    expect(counts).toEqual([
      ['Q4', '2'],
      ['D4', '1'],
    ]);
    expect(await yearRows()).toEqual([
      [2001, 1, 0, 1],
      [2002, 0, 0, 0],
      [2003, 1, 1, 0],
    ]);
    expect((await chartDrawn()).painted).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download as SGF dictionary' }).click()]);
    const chunks: Buffer[] = [];
    for await (const chunk of (await download.createReadStream())!) chunks.push(chunk as Buffer);
    const sgf = Buffer.concat(chunks).toString('utf8');
    expect(sgf.startsWith('(;')).toBe(true);
    expect(sgf).toContain('B[pp]');
    expect(sgf).not.toContain('B[dp]');
  });

  it('filters the games list by a rank range kept in the URL', async () => {
    await page.goto(`${archive.baseUrl}/#/`);
    await page.locator('.result').first().waitFor();
    await page.locator('form.filters select[name="rankMin"]').selectOption('4d');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => location.hash.includes('rankMin=4d'));
    await page.waitForFunction(() => document.querySelectorAll('.results .result').length === 3);
    const listed = await page.locator('.results .result a.result-link').evaluateAll((links) => links.map((link) => Number(/#\/games\/(\d+)/.exec(link.getAttribute('href')!)![1])));
    expect(listed.sort((a, b) => a - b)).toEqual([ids[0], ids[2], ids[5]].sort((a, b) => a - b));
    await page.reload();
    await page.waitForFunction(() => document.querySelectorAll('.results .result').length === 3);
    await expect(page.locator('form.filters select[name="rankMin"]').inputValue()).resolves.toBe('4d');
  });

  it('filters the patterns page by a rank range kept in its URL', async () => {
    // A black stone on the 4-4 point of an otherwise empty 5×4 corner: every game has it after ply 1.
    // Both players 3d or weaker: games 2, 5 and 7.
    await page.goto(`${archive.baseUrl}/#/patterns`);
    await page.locator('.pattern-board button.pt[data-x="3"][data-y="3"]').click();
    await page.locator('.pattern-form select[name="rankMax"]').selectOption('3d');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForFunction(() => location.hash.includes('rankMax=3d'));
    await page.waitForFunction(() => document.querySelector('#pattern-results')?.textContent === '3 games with the pattern' && document.querySelectorAll('.pattern-results .result').length === 3);
    const found = () => page.locator('.pattern-results .result a.result-link').evaluateAll((links) => links.map((link) => Number(/#\/games\/(\d+)/.exec(link.getAttribute('href')!)![1])).sort((a, b) => a - b));
    expect(await found()).toEqual([ids[1], ids[4], ids[6]]);
    await page.reload();
    await expect(page.locator('.pattern-form select[name="rankMax"]').inputValue()).resolves.toBe('3d');
    await page.waitForFunction(() => document.querySelector('#pattern-results')?.textContent === '3 games with the pattern' && document.querySelectorAll('.pattern-results .result').length === 3);
    expect(await found()).toEqual([ids[1], ids[4], ids[6]]);
  });

  it('logged no console error or warning and threw nothing', () => {
    expect(complaints).toEqual([]);
  });
});
