import { scorePosition } from '../../../rules/dots/index.js';
import type { FormatDescriptor, FormatPlugin, GameRecord, InterchangeGame, MainLine, PlayerEntry, Problem, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { interchangeLine } from '../../families/lines.js';
import { asDotsGame } from '../../families/dots/index.js';
import type { DotsInterchangeGame } from '../../families/dots/index.js';
import { boardStateToInterchange, interchangeToBoardState } from './interchange.js';
import { decodeUtf8 } from '../../text/decode.js';
import { boardScoreProblem, dotsOutcomes, unenclosedPointProblem } from '../../families/dots/problems.js';
import { BoardState, looksLikeBoardState, parseBoardState } from './model.js';

export const DOTS_SERVER_204: FormatDescriptor = {
  publisher: 'Dots server',
  version: '204',
  family: 'dots',
  title: 'Dots server board state (response 204: ACU, AUF, SCR, GAL rows)',
  mediaTypes: ['text/plain'],
  extensions: ['.txt'],
};

export const dotsServerPlugin: FormatPlugin = {
  id: 'dots-server',
  formats: [DOTS_SERVER_204],

  detect(file: UploadedFile): boolean {
    // Only the first lines matter; a cut multi-byte character just decodes as U+FFFD here.
    return looksLikeBoardState(Buffer.from(file.bytes.subarray(0, 400)).toString('utf8'));
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const text = decodeUtf8(file.bytes);
    const state = parseBoardState(text, options.limits);
    const score = scorePosition({ width: state.width, height: state.height, players: state.active.length, points: state.points });
    const problems: Problem[] = [];
    state.scores.forEach((declared, seat) => {
      if (declared !== score.points[seat]) {
        problems.push(boardScoreProblem(`player ${seat + 1}`, declared, score.points[seat], 'SCR'));
      }
    });
    for (const cell of score.unenclosed) {
      problems.push(unenclosedPointProblem(cell.col, cell.row));
    }
    // The game has ended when at most one player is still active (AUF) or no free point (0) is left.
    const ended = state.active.filter(Boolean).length <= 1 || !state.points.includes(0);
    const outcomes = dotsOutcomes(score.points, ended);
    const players: PlayerEntry[] = state.active.map((_, seat) => ({
      seat,
      name: `player ${seat + 1}`,
      externalId: null,
      color: String(seat + 1),
      declaredPoints: state.scores[seat],
      points: score.points[seat],
      captures: score.points[seat],
      outcome: outcomes[seat],
    }));
    const dots = score.liveDots.reduce((a, b) => a + b, 0) + score.capturedDots.reduce((a, b) => a + b, 0);
    return {
      publisher: DOTS_SERVER_204.publisher,
      version: DOTS_SERVER_204.version,
      header: text.slice(0, state.scoreLine.offset + state.scoreLine.length),
      body: text.slice(state.scoreLine.offset + state.scoreLine.length).replace(/^\r?\n|^\r/, ''),
      family: 'dots',
      analysis: {
        players,
        moveCount: dots,
        result: null,
        verdict: { legal: true, consistent: problems.length === 0, problems },
        // The field is the GAL rows (width = points per row, height = rows); the answer has no date, event or rules.
        facts: { boardWidth: state.width, boardHeight: state.height, datePlayed: null, event: null, rules: null },
        details: {
          width: state.width,
          height: state.height,
          description: state.description,
          toMove: state.toMove,
          active: [...state.active],
          score: [...score.points],
          declaredScore: [...state.scores],
          liveDots: score.liveDots,
          capturedDots: score.capturedDots,
          surroundedEmpty: score.surroundedEmpty,
          recaptured: score.recaptured.length,
        },
        replay: [],
      },
    };
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const text = decodeUtf8(file.bytes);
    const state: BoardState = parseBoardState(text, options.limits);
    const score = scorePosition({ width: state.width, height: state.height, players: state.active.length, points: state.points });
    const { offset, length } = state.scoreLine;
    const content = `${text.slice(0, offset)}SCR ${score.points.join(' ')}${text.slice(offset + length)}`;
    return { publisher: DOTS_SERVER_204.publisher, version: DOTS_SERVER_204.version, mediaType: 'text/plain; charset=utf-8', filename: 'board.regenerated.txt', content };
  },

  /** The main line: the game's plain model (read again from the bytes). */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    return interchangeLine(await dotsServerPlugin.toInterchange!(file, options));
  },

  async toInterchange(file: UploadedFile, options: ReadOptions): Promise<DotsInterchangeGame> {
    return boardStateToInterchange(parseBoardState(decodeUtf8(file.bytes), options.limits));
  },

  async fromInterchange(game: InterchangeGame): Promise<RegeneratedFile> {
    const content = interchangeToBoardState(asDotsGame(game, DOTS_SERVER_204), DOTS_SERVER_204);
    return { publisher: DOTS_SERVER_204.publisher, version: DOTS_SERVER_204.version, mediaType: 'text/plain; charset=utf-8', filename: 'board.txt', content };
  },
};
