import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import type { FormatDescriptor, GameRecord, ReadOptions } from '../../../../src/formats/plugin.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import { dotsTranscriptPlugin } from '../../../../src/formats/plugins/dots-transcript/plugin.js';
import { SGF_DOTS_FORMAT, sgfDotsPlugin } from '../../../../src/formats/plugins/sgf-dots/plugin.js';
import { VK_CODE_FORMAT, vkDotsPlugin } from '../../../../src/formats/plugins/vk-dots/plugin.js';
import type { DotsInterchangeGame } from '../../../../src/formats/families/dots/index.js';
import { refusal } from '../../../support/limits.js';

const options: ReadOptions = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const file = (text: string) => ({ bytes: Buffer.from(text, 'utf8') });

const HEADER = ['TABULA DOTS TRANSCRIPT 1', 'game 1', 'started 2026-11-23T01:00:00.000Z', 'field 10 10', 'time 30', 'extra 0', 'start central', 'player 1 ann', 'player 2 bob'];

/**
 * Ann surrounds bob's 5,4 with 5,3 / 4,4 / 6,4 / 5,5 (x,y), bob stops, ann is left alone: bob's
 * other dots 0,0 and 0,1 are on the edge, so nothing more counts. 1:0.
 */
const TWO_PLAYERS = [
  ...HEADER,
  'move 1 4 4 1000',
  'move 2 5 4 2000',
  'move 1 5 3 3000',
  'move 2 0 0 4000',
  'move 1 6 4 5000',
  'move 2 0 1 6000',
  'move 1 5 5 7000',
  'stop 2 srd 7500',
  'end last_player 7500',
  'score 1 0',
  '',
].join('\n');

async function read(text: string): Promise<GameRecord> {
  return dotsTranscriptPlugin.read(file(text), options);
}


describe('detection', () => {
  it('is claimed by this plugin alone, by its first line', () => {
    expect(FORMAT_PLUGINS.filter((p) => p.detect(file(TWO_PLAYERS))).map((p) => p.id)).toEqual(['dots-transcript']);
    expect(dotsTranscriptPlugin.detect(file('204\nACU ann\nAUF 1 1\nSCR 0 0\nGAL 00\n'))).toBe(false);
    expect(dotsTranscriptPlugin.detect(file('TABULA DOTS TRANSCRIPT 2\n'))).toBe(false);
  });
});

describe('a two-player game', () => {
  it('replays to the recorded result, with logins, external ids and outcomes', async () => {
    const record = await read(TWO_PLAYERS);
    expect([record.publisher, record.version, record.family]).toEqual(['Dots server', 'transcript', 'dots']);
    expect(record.header).toBe(HEADER.join('\n'));
    expect(record.body!.startsWith('move 1 4 4 1000\n')).toBe(true);
    const analysis = record.analysis!;
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.moveCount).toBe(7);
    expect(analysis.result).toBe('ann was the last player left; ann wins 1:0');
    expect(analysis.players).toEqual([
      { seat: 0, name: 'ann', externalId: 'tabula-dots:ann', color: '1', declaredPoints: 1, points: 1, captures: 1, outcome: 'won' },
      { seat: 1, name: 'bob', externalId: 'tabula-dots:bob', color: '2', declaredPoints: 0, points: 0, captures: 0, outcome: 'lost' },
    ]);
    expect(analysis.facts).toEqual({
      boardWidth: 10,
      boardHeight: 10,
      datePlayed: '2026-11-23',
      event: null,
      rules: 'Dots server: 30 s per move, first dots in the centre',
      ending: 'score',
      margin: 1,
    });
    const last = analysis.replay[6];
    expect([last.move, last.captured, last.score, last.details?.at]).toEqual(['5,5', ['5,4'], [1, 0], 7000]);
    expect(analysis.details.stops).toEqual([{ player: 1, why: 'srd', at: 7500 }]);
  });

  it('flags a wrong score line and regenerates it', async () => {
    const wrong = TWO_PLAYERS.replace('score 1 0', 'score 2 0');
    const analysis = (await read(wrong)).analysis!;
    expect(analysis.verdict.consistent).toBe(false);
    expect(analysis.verdict.problems.map((p) => p.code)).toEqual(['cache.points']);
    const regenerated = await dotsTranscriptPlugin.regenerate(file(wrong), options);
    expect(regenerated.content).toBe(TWO_PLAYERS);
  });

  it('flags an end the rules do not reach', async () => {
    const early = TWO_PLAYERS.replace('stop 2 srd 7500\nend last_player 7500\nscore 1 0', 'end no_free_point 7000\nscore 1 0');
    const analysis = (await read(early)).analysis!;
    expect(analysis.verdict.problems.map((p) => p.code)).toEqual(['cache.result']);
    // The rules have not ended the game: nobody won.
    expect(analysis.players.map((p) => p.outcome)).toEqual(['unfinished', 'unfinished']);
  });

  it('reports a first dot outside the centre as illegal', async () => {
    const analysis = (await read([...HEADER, 'move 1 0 0 1000', ''].join('\n'))).analysis!;
    expect(analysis.verdict.legal).toBe(false);
    expect(analysis.verdict.problems.map((p) => [p.code, p.ply])).toEqual([['dots.outside_start_area', 1]]);
  });

  it('leaves an unfinished game without result', async () => {
    const analysis = (await read([...HEADER, 'move 1 4 4 1000', 'end unfinished 1000', ''].join('\n'))).analysis!;
    expect(analysis.result).toBeNull();
    expect(analysis.facts.ending).toBeNull();
    expect(analysis.players.map((p) => p.outcome)).toEqual(['unfinished', 'unfinished']);
  });

  it.each([
    ['a move out of turn', [...HEADER, 'move 2 4 4 1000', ''], /player 2 moves, but it is player 1's turn/],
    ['a time going back', [...HEADER, 'move 1 4 4 1000', 'move 2 5 5 900', ''], /earlier than the event before/],
    ['a seat past the players', [...HEADER, 'move 3 4 4 1000', ''], /seat 3/],
    ['a score without an end', [...HEADER, 'score 0 0', ''], /only a finished game has a score line/],
    ['a stray line', [...HEADER, 'pass 1', ''], /line 10 is not an event/],
    ['a field past 50', ['TABULA DOTS TRANSCRIPT 1', 'game 1', 'started 2026-11-23T01:00:00.000Z', 'field 51 10', ''], /51x10/],
  ])('refuses %s', async (_, lines, message) => {
    const error = await refusal(read(lines.join('\n')));
    expect(error.status).toBe(422);
    expect(error.message).toMatch(message);
  });
});

describe('a four-player game', () => {
  it('counts the extra move and the last player', async () => {
    // The lobby test's game: a surrounds d's 2,2 and moves again; b and c stop; a alone takes b's
    // 5,4, c's 4,5 and d's 5,5 (none is joined to the edge by its owner's dots): 1 + 3.
    const text = [
      'TABULA DOTS TRANSCRIPT 1', 'game 4', 'started 2026-11-23T01:00:00.000Z', 'field 10 10', 'time 60', 'extra 1', 'start central',
      'player 1 a', 'player 2 b', 'player 3 c', 'player 4 d',
      'move 1 4 4 1', 'move 2 5 4 2', 'move 3 4 5 3', 'move 4 5 5 4',
      'move 1 2 1 5', 'move 2 9 9 6', 'move 3 1 9 7', 'move 4 2 2 8',
      'move 1 1 2 9', 'move 2 9 8 10', 'move 3 2 9 11', 'stop 4 srd 12',
      'move 1 3 2 13', 'move 2 9 7 14', 'move 3 3 9 15',
      'move 1 2 3 16', 'move 1 7 7 17',
      'stop 2 srd 18', 'stop 3 srd 19', 'end last_player 19', 'score 4 0 0 0', '',
    ].join('\n');
    const analysis = (await read(text)).analysis!;
    expect(analysis.verdict).toEqual({ legal: true, consistent: true, problems: [] });
    expect(analysis.result).toBe('a was the last player left; a wins 4:0:0:0');
    expect(analysis.players.map((p) => [p.points, p.captures, p.outcome])).toEqual([[4, 1, 'won'], [0, 0, 'lost'], [0, 0, 'lost'], [0, 0, 'lost']]);
    expect(analysis.details.lastPlayer).toEqual({ player: 0, surroundable: 3 });
    expect(analysis.facts.margin).toBe(4);
  });
});

describe('conversions', () => {
  async function interchange(): Promise<DotsInterchangeGame> {
    return (await dotsTranscriptPlugin.toInterchange!(file(TWO_PLAYERS), options)) as DotsInterchangeGame;
  }

  async function write(format: FormatDescriptor, plugin: typeof vkDotsPlugin): Promise<string> {
    const written = await plugin.fromInterchange!(await interchange(), { ...options, format });
    return Buffer.from(written.content).toString('utf8');
  }

  it('gives the dots and the stop in order, with logins', async () => {
    const game = await interchange();
    expect(game.players.map((p) => [p.name, p.externalId])).toEqual([['ann', 'tabula-dots:ann'], ['bob', 'tabula-dots:bob']]);
    expect(game.moves[0]).toEqual({ kind: 'dot', seat: 0, cell: { row: 4, col: 4 } });
    expect(game.moves[7]).toEqual({ kind: 'stop', seat: 1 });
    expect(game.result).toEqual({ kind: 'score', winner: 0, margin: 1, text: null });
    expect(game.field).toEqual({ width: 10, height: 10, stated: true });
  });

  it('writes a VK code: row then column from 1, then the stop of the second player', async () => {
    // x,y 4,4 -> row 5 column 5 "55"; 5,4 -> "56"; 5,3 -> "46"; 0,0 -> "11"; 6,4 -> "57"; 0,1 -> "21"; 5,5 -> "66".
    const code = await write(VK_CODE_FORMAT, vkDotsPlugin);
    expect(code.startsWith('55564611572166')).toBe(true);
    expect(code.trimEnd().endsWith('0s')).toBe(true);
  });

  it('writes SGF GM[40] with the dots as x then y letters', async () => {
    const sgf = await write(SGF_DOTS_FORMAT, sgfDotsPlugin);
    expect(sgf).toContain('GM[40]');
    expect(sgf).toContain('SZ[10]');
    // 4,4 -> ee; 5,4 -> fe; 5,3 -> fd; 0,0 -> aa; 6,4 -> ge; 0,1 -> ab; 5,5 -> ff (with its surround chain after a dot).
    expect(sgf.replace(/\s/g, '')).toMatch(/;B\[ee\];W\[fe\];B\[fd\];W\[aa\];B\[ge\];W\[ab\];B\[ff[.\]]/);
    expect(sgf).toContain('PB[ann]PW[bob]');
    expect(sgf).toContain('RE[B+1]');
  });
});
