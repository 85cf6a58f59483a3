import type { FormatPlugin, GameAnalysis, GameRecord, JsonValue, MainLine, PlayerEntry, Problem, ReadOptions, RegeneratedFile, UploadedFile } from '../../plugin.js';
import { dotsLine } from '../../families/lines.js';
import { dotsReplayPly, dotsScoreText, surroundingMoves } from '../../families/dots/index.js';
import type { CellName, DotsInterchangeGame, DotsInterchangeMove } from '../../families/dots/index.js';
import { dotsIllegalMove, dotsOutcomes } from '../../families/dots/problems.js';
import { outcomesByScore } from '../../families/outcome.js';
import { cacheProblem } from '../../families/problem.js';
import { decodeUtf8 } from '../../text/decode.js';
import { readTranscript, looksLikeTranscript } from './read.js';
import type { ReadTranscript } from './read.js';
import { replayTranscript } from './replay.js';
import type { TranscriptReplay } from './replay.js';
import { DOTS_TRANSCRIPT, transcriptExternalId, writeTranscript } from '../../families/dots/transcript.js';
import type { Transcript } from '../../families/dots/transcript.js';

/** Points as the protocol names them: `x,y` (column, row from 0). */
const cellName: CellName = (cell) => `${cell.col},${cell.row}`;

export const dotsTranscriptPlugin: FormatPlugin = {
  id: 'dots-transcript',
  formats: [DOTS_TRANSCRIPT],

  detect(file: UploadedFile): boolean {
    return looksLikeTranscript(Buffer.from(file.bytes.subarray(0, 40)).toString('utf8'));
  },

  async read(file: UploadedFile, options: ReadOptions): Promise<GameRecord> {
    const text = decodeUtf8(file.bytes);
    const read = readTranscript(text, options.limits);
    const replay = replayTranscript(read.transcript);
    return {
      publisher: DOTS_TRANSCRIPT.publisher,
      version: DOTS_TRANSCRIPT.version,
      header: text.slice(0, read.headerEnd),
      body: text.slice(read.headerEnd).replace(/^\r?\n/, ''),
      family: 'dots',
      analysis: analyse(read, replay),
    };
  },

  async regenerate(file: UploadedFile, options: ReadOptions): Promise<RegeneratedFile> {
    const { transcript } = readTranscript(decodeUtf8(file.bytes), options.limits);
    const replay = replayTranscript(transcript);
    const finished = transcript.end !== null && transcript.end.why !== 'unfinished';
    const content = writeTranscript({ ...transcript, scores: finished ? replay.scores : null });
    return { publisher: DOTS_TRANSCRIPT.publisher, version: DOTS_TRANSCRIPT.version, mediaType: 'text/plain; charset=utf-8', filename: 'game.regenerated.txt', content };
  },

  async toInterchange(file: UploadedFile, options: ReadOptions): Promise<DotsInterchangeGame> {
    const { transcript } = readTranscript(decodeUtf8(file.bytes), options.limits);
    return transcriptToInterchange(transcript, replayTranscript(transcript));
  },

  /** The main line: the plain model, under the transcript's rule on first dots (which the model keeps only in words). */
  async line(file: UploadedFile, options: ReadOptions): Promise<MainLine | null> {
    const { transcript } = readTranscript(decodeUtf8(file.bytes), options.limits);
    return dotsLine(transcriptToInterchange(transcript, replayTranscript(transcript)), { centralStart: transcript.centralStart });
  },
};

/** Whether the game ended (under the rules, as written): else its players' outcomes are unfinished. */
function isFinished(t: Transcript, replay: TranscriptReplay): boolean {
  return t.end !== null && t.end.why !== 'unfinished' && replay.ending !== null;
}

/** The seat with the single best score, or null for a draw. */
function winnerOf(scores: readonly number[]): number | null {
  const won = outcomesByScore(scores).indexOf('won');
  return won < 0 ? null : won;
}

/** The winner's lead over the next best score (0 for a draw). */
function marginOf(scores: readonly number[]): number {
  const [best, next] = [...scores].sort((a, b) => b - a);
  return best - next;
}

function resultText(t: Transcript, replay: TranscriptReplay): string {
  const { scores } = replay;
  const how =
    replay.ending === 'last_player'
      ? `${t.players[replay.lastPlayer!.seat]} was the last player left`
      : replay.ending === 'no_free_point'
        ? 'no free point left'
        : 'every player stopped';
  if (scores.length === 2) return `${how}; ${dotsScoreText(t.players, scores)}`;
  const winner = winnerOf(scores);
  return `${how}; ${winner === null ? 'draw' : `${t.players[winner]} wins`} ${scores.join(':')}`;
}

function analyse(read: ReadTranscript, replay: TranscriptReplay): GameAnalysis {
  const t = read.transcript;
  const problems: Problem[] = [];
  for (const move of replay.moves) {
    if (move.illegal !== undefined) problems.push(dotsIllegalMove(move.illegal, move.ply, `${t.players[move.seat]} ${move.x},${move.y}`));
  }
  const legal = problems.length === 0;
  const writtenEnd = t.end?.why ?? null;
  const ruledEnd = replay.ending;
  if (writtenEnd !== null && writtenEnd !== 'unfinished' && writtenEnd !== ruledEnd) {
    problems.push(cacheProblem('cache.result', null, `the transcript ends "${writtenEnd}", the replay ${ruledEnd === null ? 'has not ended' : `ends "${ruledEnd}"`}`));
  }
  const finished = isFinished(t, replay);
  if (read.writtenScores !== null && read.writtenScores.join(' ') !== replay.scores.join(' ')) {
    problems.push(cacheProblem('cache.points', null, `the score line gives ${read.writtenScores.join(' ')}, the replay ${replay.scores.join(' ')}`));
  }
  const outcomes = dotsOutcomes(replay.scores, finished);
  const players: PlayerEntry[] = t.players.map((login, seat) => ({
    seat,
    name: login,
    externalId: transcriptExternalId(login),
    color: String(seat + 1),
    declaredPoints: read.writtenScores?.[seat] ?? null,
    points: replay.scores[seat],
    captures: replay.captures[seat],
    outcome: outcomes[seat],
  }));
  const winner = winnerOf(replay.scores);
  const details: Record<string, JsonValue> = {
    game: t.game,
    started: t.started,
    field: { width: t.width, height: t.height },
    secondsPerMove: t.seconds,
    extraMove: t.extraMove,
    centralStart: t.centralStart,
    moves: replay.moves.length,
    surrounds: surroundingMoves(replay.moves),
    stops: t.events.flatMap((e) => (e.kind === 'stop' ? [{ player: e.seat, why: e.why, at: e.at }] : [])),
    end: t.end === null ? null : { why: t.end.why, at: t.end.at },
    lastPlayer: replay.lastPlayer === null ? null : { player: replay.lastPlayer.seat, surroundable: replay.lastPlayer.surroundable },
    score: [...replay.scores],
    declaredScore: read.writtenScores === null ? null : [...read.writtenScores],
  };
  const times = t.events.filter((e) => e.kind === 'move').map((e) => e.at);
  return {
    players,
    moveCount: replay.moves.length,
    result: finished ? resultText(t, replay) : null,
    verdict: { legal, consistent: problems.every((p) => !p.code.startsWith('cache.')), problems },
    facts: {
      boardWidth: t.width,
      boardHeight: t.height,
      datePlayed: t.started.slice(0, 10),
      event: null,
      rules: `Dots server: ${t.seconds} s per move${t.extraMove ? ', extra move after a surround' : ''}${t.centralStart ? ', first dots in the centre' : ''}`,
      ending: finished ? (winner === null ? 'draw' : 'score') : null,
      margin: finished ? marginOf(replay.scores) : null,
    },
    details,
    replay: replay.moves.map((move, i) => {
      const ply = dotsReplayPly(
        { ply: move.ply, seat: move.seat, move: `${move.x},${move.y}`, row: move.y, col: move.x, cell: { row: move.y, col: move.x }, illegal: move.illegal, surrounds: move.surrounds, scores: move.scores },
        cellName,
      );
      // When the dot was placed, in ms since the game started.
      return { ...ply, details: { ...ply.details, at: times[i] } };
    }),
  };
}

/** The family's plain model: dots and stops in order; the result as the replay counts it. */
function transcriptToInterchange(t: Transcript, replay: TranscriptReplay): DotsInterchangeGame {
  const moves: DotsInterchangeMove[] = t.events.map((e) => (e.kind === 'move' ? { kind: 'dot', seat: e.seat, cell: { row: e.y, col: e.x } } : { kind: 'stop', seat: e.seat }));
  const finished = isFinished(t, replay);
  const winner = winnerOf(replay.scores);
  return {
    family: 'dots',
    field: { width: t.width, height: t.height, stated: true },
    players: t.players.map((login, seat) => ({ name: login, externalId: transcriptExternalId(login), rating: null, colour: String(seat + 1) })),
    rules: { extraMove: t.extraMove, crossStart: false, text: t.centralStart ? 'first dots in the centre' : null },
    setup: [],
    moves,
    variations: [],
    snapshot: null,
    result: finished ? { kind: winner === null ? 'draw' : 'score', winner, margin: marginOf(replay.scores), text: null } : null,
    date: t.started.slice(0, 10),
    event: null,
    extra: { 'Dots server:game': String(t.game), 'Dots server:started': t.started, 'Dots server:time': String(t.seconds) },
  };
}
