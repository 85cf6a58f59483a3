import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FormatError } from '../../../../src/core/errors.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import type { FormatDescriptor, FormatPlugin, GameAnalysis, InterchangeGame, ReadOptions } from '../../../../src/formats/plugin.js';
import type { DotsInterchangeGame } from '../../../../src/formats/families/dots/index.js';
import { DOTS_SERVER_204, dotsServerPlugin } from '../../../../src/formats/plugins/dots-board-state/plugin.js';
import { SGF_DOTS_FORMAT, sgfDotsPlugin } from '../../../../src/formats/plugins/sgf-dots/plugin.js';
import { VK_CODE_FORMAT, VK_SAVE_FORMAT, vkDotsPlugin } from '../../../../src/formats/plugins/vk-dots/plugin.js';
import { refusal } from '../../../support/limits.js';

const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const bytes = (text: string | Buffer): Buffer => (Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
const text = (content: string | Buffer): string => Buffer.from(content).toString('utf8');

const PLUGINS: Record<string, FormatPlugin> = { 'VK Dots': vkDotsPlugin, SGF: sgfDotsPlugin, 'Dots server': dotsServerPlugin };
const pluginOf = (format: FormatDescriptor): FormatPlugin => PLUGINS[format.publisher];

async function toGame(content: string | Buffer, format: FormatDescriptor): Promise<DotsInterchangeGame> {
  return (await pluginOf(format).toInterchange!({ bytes: bytes(content) }, { ...options, format })) as DotsInterchangeGame;
}

async function write(game: InterchangeGame, format: FormatDescriptor): Promise<string> {
  const written = await pluginOf(format).fromInterchange!(game, { ...options, format });
  expect([written.publisher, written.version]).toEqual([format.publisher, format.version]);
  return text(written.content);
}

async function convert(content: string | Buffer, from: FormatDescriptor, to: FormatDescriptor): Promise<string> {
  return write(await toGame(content, from), to);
}

async function analysis(content: string | Buffer, format: FormatDescriptor): Promise<GameAnalysis> {
  return (await pluginOf(format).read({ bytes: bytes(content) }, { ...options, format })).analysis!;
}


/**
 * Every dot of the main line, `seat:row,col` (0-based): the first `opening` of them (setup, or the
 * moves a setup became) as a sorted set, the rest in play order.
 */
function dotSequence(game: DotsInterchangeGame, opening: number): string[] {
  const setup = game.setup.map((d) => `${d.seat}:${d.cell.row},${d.cell.col}`);
  const all = [...setup, ...game.moves.flatMap((m) => (m.kind === 'dot' ? [`${m.seat}:${m.cell.row},${m.cell.col}`] : []))];
  return [...all.slice(0, opening).sort(), ...all.slice(opening)];
}

describe('SGF to VK and back, by hand', () => {
  it('writes row then column, 1-based base-36: B[cb] (column 2, row 1) is "23", W[Ai] (column 26, row 8) is "9r"', async () => {
    expect(await convert('(;GM[40]SZ[30];B[cb];W[Ai])', SGF_DOTS_FORMAT, VK_CODE_FORMAT)).toBe('239r');
  });

  it('leaves the chains an SGF move writes behind (caches) and lets White be red when White moves first', async () => {
    expect(await convert('(;GM[40]SZ[5];B[bb];W[cc.bcabcb])', SGF_DOTS_FORMAT, VK_CODE_FORMAT)).toBe('2233');
    const save = await convert('(;GM[40]SZ[9]PB[Bob]PW[Wanda];W[aa];B[bb])', SGF_DOTS_FORMAT, VK_SAVE_FORMAT);
    // No VK ids in an SGF file: 0; White moved first, so White is red (line 2).
    expect(save).toBe('1.0\n0 Wanda\n0 Bob\n-b-\n1122\n');
  });

  // Black closes a diamond around White's c3 (column c, row 3 in SGF letters: cc):
  // B[cb] W[cc] B[bc] W[aa] B[dc] W[ae] B[cd].
  const diamond = '(;GM[40]SZ[5]PB[Bo]PW[Wu];B[cb];W[cc];B[bc];W[aa];B[dc];W[ae];B[cd])';

  it('regenerates the surround record of a capture (spec: chain from the dot after X0, area on the left)', async () => {
    // cb cc bc aa dc ae cd are (row, column) 1-based 23 33 32 11 34 51 43.
    // The move is row 4, column 3 (1-based) = "43". Anchor: its N neighbour 33 (the only point of
    // the area); X0 = 32, the first black dot west of it; walking around 33 with the area on the
    // left: 43, 34, 23, 32. Captured 33, no empty point, Black 1 : White 0.
    expect(await convert(diamond, SGF_DOTS_FORMAT, VK_CODE_FORMAT)).toBe('23333211345143#43342332#33##1@0#');
  });

  it('writes the chain back into SGF the way zagram does (leftmost dot first, area on the right)', async () => {
    const code = await convert(diamond, SGF_DOTS_FORMAT, VK_CODE_FORMAT);
    const sgf = await convert(code, VK_CODE_FORMAT, SGF_DOTS_FORMAT);
    // The leftmost dot is bc; then around c3 clockwise in the picture: cb, dc, cd, and back to bc.
    expect(sgf).toContain(';B[cd.bccbdccdbc]');
    expect(sgf).toContain('SZ[35]'); // a VK code states no field: the 35x35 the archive replays it on
    const back = await analysis(sgf, SGF_DOTS_FORMAT);
    expect(back.players.map((p) => p.points)).toEqual([1, 0]);
    expect(back.replay[6].captured).toEqual(['cc']);
  });

  it('refuses what a VK code cannot hold with 422 export.does_not_fit naming it', async () => {
    const cases: [string, FormatDescriptor, string][] = [
      ['(;GM[40]SZ[36:20];B[aa];W[bb])', VK_CODE_FORMAT, 'a field larger than a VK code can address (36x20'],
      ['(;GM[40]SZ[9];B[aa];B[bb])', VK_CODE_FORMAT, "move 2 is black's out of turn"],
      ['(;GM[40]SZ[9];B[aa](;W[bb])(;W[cc]))', VK_SAVE_FORMAT, '1 variation: a VK code holds one line of play'],
      ['(;GM[40]SZ[9];B[aa];W[];B[bb])', VK_CODE_FORMAT, 'move 2 is a pass'],
      ['(;GM[40]SZ[9];B[aa];W[bb];B[])', VK_CODE_FORMAT, 'move 3 is grounding'],
      ['(;GM[40]SZ[9]AB[aa][bb]AW[cc];W[dd])', VK_CODE_FORMAT, 'setup dots cannot be written as alternating first moves'],
      ['(;GM[40]SZ[9])', VK_CODE_FORMAT, 'no dot'],
    ];
    for (const [sgf, format, message] of cases) {
      const error = await refusal(convert(sgf, SGF_DOTS_FORMAT, format));
      expect([sgf, error.status, error.code]).toEqual([sgf, 422, 'export.does_not_fit']);
      expect(error.message).toContain(message);
    }
  });

  it('refuses a game of another family with export.unsupported', async () => {
    const error = await refusal(vkDotsPlugin.fromInterchange!({ family: 'go' }, { ...options, format: VK_CODE_FORMAT }));
    expect([error.code, error.message]).toEqual(['export.unsupported', 'VK Dots/code is a Dots format; the game is go']);
  });
});

describe('VK codes and save files', () => {
  const fixtures = 'test/formats/plugins/vk-dots/fixtures';
  const fullGame = readFileSync(join(fixtures, 'full-game.txt'));
  const bareCode = readFileSync(join(fixtures, 'bare-code.txt'));
  const regenerated = async (content: Buffer): Promise<string> => text((await vkDotsPlugin.regenerate({ bytes: content }, options)).content);

  it('VK to VK is a normalised copy: the seed game comes back as regenerate() writes it', async () => {
    expect(await convert(fullGame, VK_SAVE_FORMAT, VK_SAVE_FORMAT)).toBe(await regenerated(fullGame));
    expect(await convert(bareCode, VK_CODE_FORMAT, VK_CODE_FORMAT)).toBe(await regenerated(bareCode));
  });

  it('the bare code -> SGF -> VK code regenerates exactly what VK regenerate() does', async () => {
    const sgf = await convert(bareCode, VK_CODE_FORMAT, SGF_DOTS_FORMAT);
    expect(await convert(sgf, SGF_DOTS_FORMAT, VK_CODE_FORMAT)).toBe(await regenerated(bareCode));
  });

  it('the saved game -> SGF -> VK save keeps the code and the names; VK ids and the size letter are lost', async () => {
    const sgf = await convert(fullGame, VK_SAVE_FORMAT, SGF_DOTS_FORMAT);
    expect(sgf).toContain('PB[For You]PW[Павел Слепнев]');
    const back = (await convert(sgf, SGF_DOTS_FORMAT, VK_SAVE_FORMAT)).split('\n');
    const expected = (await regenerated(fullGame)).split('\n');
    expect(back[4]).toBe(expected[4]);
    expect(back.slice(0, 4)).toEqual(['1.0', '0 For You', '0 Павел Слепнев', '-b-']);
    // The seed game's last record says 8@29: the SGF replay agrees (Black = red = first player).
    expect((await analysis(sgf, SGF_DOTS_FORMAT)).players.map((p) => p.points)).toEqual([8, 29]);
  });

  it('a code ended with 0f goes to SGF without the stop, with the captures as the result', async () => {
    // Red 33, blue 23, red 11, blue 32, red 15, blue 43, red ends (0f), blue 34 closes the diamond
    // around red's 33: blue 1, red 0.
    const code = '3323113215430f34';
    const sgf = await convert(code, VK_CODE_FORMAT, SGF_DOTS_FORMAT);
    expect(sgf).not.toContain('[]');
    expect(sgf).toMatch(/RE\[W\+1\]/);
    const back = await analysis(sgf, SGF_DOTS_FORMAT);
    expect(back.players.map((p) => p.points)).toEqual([0, 1]);
    // Blue's last dot follows blue's: SGF names each move's colour.
    expect(back.replay.map((p) => p.player)).toEqual([0, 1, 0, 1, 0, 1, 1]);
  });

  it('save file and bare code convert into each other; a code becomes a save file with id 0 and colour names', async () => {
    const fullGame = readFileSync('test/formats/plugins/vk-dots/fixtures/full-game.txt', 'utf8');
    expect(await convert(fullGame, VK_SAVE_FORMAT, VK_CODE_FORMAT)).toBe((await regenerated(Buffer.from(fullGame))).split('\n')[4]);
    expect(await convert('1122', VK_CODE_FORMAT, VK_SAVE_FORMAT)).toBe('1.0\n0 red\n0 blue\n-b-\n1122\n');
  });

  it('a code becomes the board state of its end: the player who stopped is inactive', async () => {
    const board = (await convert('3323113215430f34', VK_CODE_FORMAT, DOTS_SERVER_204)).split('\n');
    // Red stopped (AUF 0 1), so blue is to move; a code names nobody: player2.
    expect(board.slice(0, 4)).toEqual(['204', 'ACU player2', 'AUF 0 1', 'SCR 0 1']);
    expect(board).toHaveLength(4 + 35 + 2);
    // Row 1: red 11 and 15; row 3: blue 32, red's captured 33 (1 + 4), blue 34.
    expect(board[4]).toBe(`GAL 10001${'0'.repeat(30)}`);
    expect(board[6]).toBe(`GAL 0252${'0'.repeat(31)}`);
  });

  it('the extra-move flag: SGF writes each colour, and a save file gets + back when the moves need it', async () => {
    // The diamond of the hand-made SGF game (red closes it at 43, capturing 33), then red moves
    // again (55, the + flag) and blue answers 15.
    const save = '1.0\n1 A\n2 B\n+b-\n23333211345143#43342332#33##1@0#5515\n';
    const sgf = await convert(save, VK_SAVE_FORMAT, SGF_DOTS_FORMAT);
    expect((await analysis(sgf, SGF_DOTS_FORMAT)).replay.map((p) => p.player)).toEqual([0, 1, 0, 1, 0, 1, 0, 0, 1]);
    expect(await convert(sgf, SGF_DOTS_FORMAT, VK_SAVE_FORMAT)).toBe(save.replace('1 A\n2 B', '0 A\n0 B'));
    const code = await refusal(convert(sgf, SGF_DOTS_FORMAT, VK_CODE_FORMAT));
    expect([code.code, code.message]).toEqual([
      'export.does_not_fit',
      "the game does not fit VK Dots/code: move 8 is black's out of turn: in a VK code red and blue alternate strictly",
    ]);
  });

  it('a cross start (flag +) is setup: SGF AB/AW and back into a save file with the flag', async () => {
    // Red 55 and 66, blue 56 and 65: a 2x2 square, one diagonal each; then red 77.
    const save = '1.0\n1 A\n2 B\n-m+\n5556666577\n';
    const game = await toGame(save, VK_SAVE_FORMAT);
    expect(game.setup).toHaveLength(4);
    const sgf = await write(game, SGF_DOTS_FORMAT);
    expect(sgf).toContain('AB[ee][ff]AW[fe][ef]');
    expect(sgf).toContain(';B[gg]');
    expect(await convert(sgf, SGF_DOTS_FORMAT, VK_SAVE_FORMAT)).toBe('1.0\n0 A\n0 B\n-b+\n5556666577\n');
  });
});

describe('the real SGF games (test/fixtures/realdata/dots)', () => {
  const ROOT = 'test/fixtures/realdata/dots';
  const files = readdirSync(ROOT)
    .sort()
    .flatMap((folder) =>
      readdirSync(join(ROOT, folder))
        .filter((name) => name.endsWith('.sgf'))
        .sort()
        .map((name) => ({ name, bytes: readFileSync(join(ROOT, folder, name)) })),
    );
  const byName = (name: string): Buffer => files.find((f) => f.name === name)!.bytes;

  it('SGF -> VK code -> SGF: the same dots, moves and regenerated captures for every game that fits; the others are does_not_fit', async () => {
    expect(files).toHaveLength(67);
    const refused: [string, string][] = [];
    let converted = 0;
    let legal = 0;
    for (const { name, bytes: original } of files) {
      let game: DotsInterchangeGame;
      let code: string;
      try {
        game = await toGame(original, SGF_DOTS_FORMAT);
        code = await write(game, VK_CODE_FORMAT);
      } catch (error) {
        expect([name, (error as FormatError).code]).toEqual([name, 'export.does_not_fit']);
        refused.push([name, (error as Error).message]);
        continue;
      }
      converted++;
      const vk = await analysis(code, VK_CODE_FORMAT);
      const sgf = await convert(code, VK_CODE_FORMAT, SGF_DOTS_FORMAT);
      const again = await toGame(sgf, SGF_DOTS_FORMAT);
      // Setup dots (a cross start) come back as the code's first moves, alternating.
      expect(again.setup).toEqual([]);
      expect([name, dotSequence(again, game.setup.length)]).toEqual([name, dotSequence(game, game.setup.length)]);
      const before = await analysis(original, SGF_DOTS_FORMAT);
      const after = await analysis(sgf, SGF_DOTS_FORMAT);
      const offset = game.setup.length;
      expect([name, after.moveCount - offset]).toEqual([name, before.moveCount]);
      expect([name, after.replay.slice(offset).map((p) => p.captured)]).toEqual([name, before.replay.map((p) => p.captured)]);
      expect([name, after.players.map((p) => p.points)]).toEqual([name, before.players.map((p) => p.points)]);
      expect([name, vk.players.map((p) => p.points)]).toEqual([name, before.players.map((p) => p.points)]);
      expect([name, after.verdict.legal, vk.verdict.legal]).toEqual([name, before.verdict.legal, before.verdict.legal]);
      if (before.verdict.legal) legal++;
    }
    expect(refused.map(([name, message]) => [name, message.replace(/^the game (does not fit VK Dots\/code|cannot be converted): /, '')])).toEqual([
      // playdots.ru's and zagram's classic 39x32 fields
      ['DotsGame.Formtas.Tests_FullSgfWithStop.sgf', 'a field larger than a VK code can address (39x32; a base-36 digit reaches 35)'],
      // the file ends ;W[fn];W[nn]: White moves twice
      ['2YSc8Jx0D.sgf', "move 173 is white's out of turn: in a VK code red and blue alternate strictly"],
      // the file is "(;)"
      ['trivial.sgf', 'the root node has no field size (SZ)'],
      // zagram games with variations (count of "(;" subtrees after the main line's branch points)
      ['zagram153375.sgf', '3 variations: a VK code holds one line of play'],
      ['zagram163926.sgf', '1 variation: a VK code holds one line of play'],
      ['zagram299721.sgf', '1 variation: a VK code holds one line of play'],
      ['zagram302058.sgf', '1 variation: a VK code holds one line of play'],
      ['zagram317414.sgf', '2 variations: a VK code holds one line of play'],
      ['zagram77976.sgf', '1 variation: a VK code holds one line of play'],
      ['zagram352562.sgf', 'a field larger than a VK code can address (39x32; a base-36 digit reaches 35)'],
    ]);
    expect(converted).toBe(57);
    // Games the engine represents (legal under its rules; 32 when this was written) round-trip
    // legal, the others (optional-surround Kropki and zagram games) as illegal as they were.
    expect(legal).toBeGreaterThan(0);
  });

  it.each([
    // Results the files state, which the captures decide: szkrab's 1295 and 6492, zagram298031.
    ['1295.sgf', [17, 0], 'B+17'],
    ['6492.sgf', [16, 0], 'B+16'],
    ['zagram298031.sgf', [2, 0], 'B+2'],
  ])('%s: the captures the file states survive SGF -> VK -> SGF', async (name, scores, result) => {
    expect(text(byName(name))).toContain(`RE[${result}]`);
    const code = await convert(byName(name), SGF_DOTS_FORMAT, VK_CODE_FORMAT);
    const after = await analysis(await convert(code, VK_CODE_FORMAT, SGF_DOTS_FORMAT), SGF_DOTS_FORMAT);
    expect(after.players.map((p) => p.points)).toEqual(scores);
    // SGF -> SGF keeps RE, regenerated from the replay.
    expect(await convert(byName(name), SGF_DOTS_FORMAT, SGF_DOTS_FORMAT)).toContain(`RE[${result}]`);
  });

  it('the cross start of zagram312084 is the first four moves of a code, and setup again through a save file', async () => {
    const original = byName('zagram312084.sgf');
    // AB[oo][pp] AW[op][po], column letter first, o = 15th and p = 16th (1-based f and g):
    // Black oo -> ff, White op -> gf, Black pp -> gg, White po -> fg.
    expect(text(original)).toMatch(/AB\[oo\]\[pp\]AW\[op\]\[po\]/);
    expect((await convert(original, SGF_DOTS_FORMAT, VK_CODE_FORMAT)).slice(0, 8)).toBe('ffgfggfg');
    const save = await convert(original, SGF_DOTS_FORMAT, VK_SAVE_FORMAT);
    expect(save.split('\n')[3]).toBe('-b+');
    const back = await convert(save, VK_SAVE_FORMAT, SGF_DOTS_FORMAT);
    expect(back).toContain('AB[oo][pp]AW[op][po]');
  });

  it('SGF -> SGF keeps variations, players and root properties, and regenerates every chain', async () => {
    const original = byName('zagram153375.sgf');
    const copy = await convert(original, SGF_DOTS_FORMAT, SGF_DOTS_FORMAT);
    const [before, after] = [await analysis(original, SGF_DOTS_FORMAT), await analysis(copy, SGF_DOTS_FORMAT)];
    expect(after.details.variations).toBe(3);
    expect(after.details.variations).toBe(before.details.variations);
    expect(after.players.map((p) => [p.name, p.points])).toEqual(before.players.map((p) => [p.name, p.points]));
    expect(after.replay.map((p) => [p.move, p.captured])).toEqual(before.replay.map((p) => [p.move, p.captured]));
    expect(after.details.application).toBe('zagram.org');
    // A copy of the copy is the same text: the conversion is a normal form.
    expect(await convert(copy, SGF_DOTS_FORMAT, SGF_DOTS_FORMAT)).toBe(copy);
  });

  it('refuses the 39x32 classic field for VK and converts it to a board state', async () => {
    const original = byName('zagram352562.sgf');
    const error = await refusal(convert(original, SGF_DOTS_FORMAT, VK_SAVE_FORMAT));
    expect([error.code, error.message]).toEqual([
      'export.does_not_fit',
      'the game does not fit VK Dots/1.0: a field larger than a VK code can address (39x32; a base-36 digit reaches 35)',
    ]);
    const board = await convert(original, SGF_DOTS_FORMAT, DOTS_SERVER_204);
    const state = await analysis(board, DOTS_SERVER_204);
    // oppai-rs asserts Black 3, White 60 for this game; the board scores the same.
    expect(state.players.map((p) => p.points)).toEqual([3, 60]);
    expect(state.verdict.consistent).toBe(true);
    expect([state.facts.boardWidth, state.facts.boardHeight]).toEqual([39, 32]);
  });
});

describe('Dots server board states', () => {
  const fixture = readFileSync('test/e2e/fixtures/board-state.204');

  it('204 -> 204 is the regenerated board state', async () => {
    expect(await convert(fixture, DOTS_SERVER_204, DOTS_SERVER_204)).toBe(text((await dotsServerPlugin.regenerate({ bytes: fixture }, options)).content));
  });

  it('a game of moves becomes its final position (hand-derived)', async () => {
    const sgf = '(;GM[40]SZ[5]PB[Bo]PW[Wu];B[cb];W[cc];B[bc];W[aa];B[dc];W[ae];B[cd])';
    // White dots at a1 (row 0) and a5 (row 4), White's c3 captured by Black (2 + 4 = 6); White to move.
    expect(await convert(sgf, SGF_DOTS_FORMAT, DOTS_SERVER_204)).toBe(
      ['204', 'ACU Wu', 'AUF 1 1', 'SCR 1 0', 'GAL 20000', 'GAL 00100', 'GAL 01610', 'GAL 00100', 'GAL 20000', '', ''].join('\n'),
    );
  });

  it('a board of live dots only is setup for SGF; captures, a third player and grounding do not fit', async () => {
    const live = ['204', 'ACU bob', 'AUF 1 1', 'SCR 0 0', 'GAL 120', 'GAL 000', 'GAL 021', ''].join('\n');
    const sgf = await convert(live, DOTS_SERVER_204, SGF_DOTS_FORMAT);
    // Row 0 "120": black aa, white ba; row 2 "021": white bc, black cc (SGF: column letter first).
    expect(sgf).toContain('SZ[3]AB[aa][cc]AW[ba][bc]');
    // To VK the setup becomes alternating first moves: black aa (11), white ba (12), black cc (33), white bc (32).
    expect(await convert(live, DOTS_SERVER_204, VK_CODE_FORMAT)).toBe('11123332');
    const captured = await refusal(convert(fixture, DOTS_SERVER_204, SGF_DOTS_FORMAT));
    expect([captured.code, captured.message]).toEqual([
      'export.does_not_fit',
      'the game does not fit SGF/FF4-Dots: a board state with captured dots or surrounded points and no moves: the captures cannot be replayed',
    ]);
    const three = ['204', 'ACU bob', 'AUF 1 1 1', 'SCR 0 0 0', 'GAL 123', ''].join('\n');
    const players = await refusal(convert(three, DOTS_SERVER_204, VK_CODE_FORMAT));
    expect([players.code, players.message]).toEqual(['export.does_not_fit', 'the game does not fit VK Dots/code: 3 players (it records games of two)']);
    const grounding = await refusal(convert('(;GM[40]SZ[5];B[cc];W[aa];B[])', SGF_DOTS_FORMAT, DOTS_SERVER_204));
    expect(grounding.code).toBe('export.does_not_fit');
    expect(grounding.message).toContain('move 3 is grounding');
  });
});
