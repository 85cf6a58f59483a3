import { gameJsonPieces, toGameDto } from '../../src/catalog/game.mapper.js';
import type { GameView, GameViewWithJsonText } from '../../src/catalog/game-view.js';

/**
 * A bulk export writes each game in the pieces `gameJsonPieces` makes, splicing in problems and
 * details as the JSON text stored; the pieces joined must be byte for byte what
 * `JSON.stringify(toGameDto(…))` writes of the same game parsed, whatever the game's texts hold.
 */
describe('gameJsonPieces', () => {
  const view = (header: string | null, analysis: GameView['analysis'], body: string | null = ';B[pd]\n;W[dd])'): GameView => ({
    id: 7,
    publisher: 'SGF',
    version: 'FF4-Go',
    header,
    body,
    family: 'go',
    status: analysis ? 'indexed' : 'stored',
    statusReason: analysis ? null : 'no plugin',
    sha256: 'ab'.repeat(32),
    size: 120,
    mediaType: 'application/x-go-sgf',
    filename: 'x.sgf',
    owner: 'club-a',
    uploadedAt: new Date('2026-11-25T18:00:00.123Z'),
    players: [
      { seat: 0, name: 'Ann "\\u0000details"', externalId: null, color: 'black', rating: null, declaredPoints: null, points: 184.5, captures: 3, outcome: 'won' },
      { seat: 1, name: 'Bo', externalId: 'x:1', color: 'white', rating: '3d', declaredPoints: 7.5, points: null, captures: 0, outcome: 'lost' },
    ],
    analysis,
  });
  const analysis: NonNullable<GameView['analysis']> = {
    moveCount: 2,
    result: 'black wins by resignation',
    legal: false,
    consistent: true,
    problems: [{ code: 'illegal.ko', ply: 2, message: 'a "ko" \\u0000problems' } as never],
    details: { boardSize: 19, komi: 6.5, setup: { black: [], white: ['dd'] }, text: 'line\nbreak "\\u0000problems"' },
    facts: { boardWidth: 19, boardHeight: 19, datePlayed: '2006-01-02', event: null, rules: 'Japanese', ending: 'resignation', margin: null },
  };
  const withText = (game: GameView): GameViewWithJsonText => ({
    ...game,
    analysis: game.analysis && { ...game.analysis, problems: JSON.stringify(game.analysis.problems), details: JSON.stringify(game.analysis.details) },
  });

  it.each([
    ['an indexed game', view('(;GM[1]FF[4]C["\\u0000problems" and "\\u0000details"]', analysis)],
    ['a game stored without an index', view(null, null)],
    ['a game with Hangul and Han in its Header, quotes, a tab and a lone surrogate in its Body', view('(;GM[1]PB[쿠로레라]PW[龙盛塑机]', analysis, ';B[pd]C["\t\ud800"])')],
    ['a game without a Body', view('(;GM[1])', analysis, null)],
  ])('writes %s as toGameDto does', (_, game) => {
    expect(gameJsonPieces(withText(game)).join('')).toBe(JSON.stringify(toGameDto(game)));
  });

  it('gives null where a view made from a reading has no rating, ending or margin, in the schema\'s order', () => {
    const game = view('(;GM[1])', { ...analysis, facts: { boardWidth: 9, boardHeight: 9, datePlayed: null, event: null, rules: null } });
    game.players = [{ seat: 0, name: 'Ann', externalId: null, color: 'black', declaredPoints: null, points: null, captures: 0, outcome: null }];
    const dto = toGameDto(game);
    expect(Object.entries(dto.players[0])).toEqual([
      ['seat', 0], ['name', 'Ann'], ['externalId', null], ['color', 'black'], ['declaredPoints', null], ['points', null], ['captures', 0], ['outcome', null], ['rating', null], ['rank', null],
    ]);
    expect(dto.facts).toEqual({ boardWidth: 9, boardHeight: 9, datePlayed: null, event: null, rules: null, ending: null, margin: null, signature: null });
    expect(Object.keys(dto).slice(-2)).toEqual(['header', 'body']);
  });
});
