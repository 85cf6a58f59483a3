import { FormatError } from '../../../core/errors.js';
import { ReadLimits, checkBoard, checkLineLengths, pliesExceeded } from '../../../core/limits.js';
import { locate } from '../../text/decode.js';
import { END_REASONS, EndReason, STOP_REASONS, StopReason, TRANSCRIPT_FIRST_LINE, Transcript, TranscriptEvent } from '../../families/dots/transcript.js';
import { MAX_SIDE, MIN_SIDE } from '../../../rules/dots/index.js';

/** A transcript as read, with where its parts lie in the text. */
export interface ReadTranscript {
  readonly transcript: Transcript;
  /** End of the last `player` line: the header is the text before it, the body the text after. */
  readonly headerEnd: number;
  /** The score line as written, when there is one. */
  readonly writtenScores: readonly number[] | null;
}

/** Cheap test used by detection: the distinctive first line. */
export function looksLikeTranscript(start: string): boolean {
  return start === TRANSCRIPT_FIRST_LINE || start.startsWith(`${TRANSCRIPT_FIRST_LINE}\n`) || start.startsWith(`${TRANSCRIPT_FIRST_LINE}\r\n`);
}

interface Line {
  readonly text: string;
  readonly offset: number;
}

/**
 * Reads a transcript strictly in the order the server writes it: the first line, `game`,
 * `started`, `field`, `time`, `extra`, `start`, one `player` line per seat (numbered from 1), the
 * events, then `end` and `score`. Line lengths, the field and the number of moves are checked
 * against the limits before anything is built from them.
 */
export function readTranscript(text: string, limits: ReadLimits): ReadTranscript {
  checkLineLengths(text, limits);
  const lines: Line[] = [];
  const pattern = /\r\n|\n/g;
  let start = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    lines.push({ text: text.slice(start, m.index), offset: start });
    start = m.index + m[0].length;
  }
  if (start < text.length) lines.push({ text: text.slice(start), offset: start });
  let i = 0;
  const fail = (message: string, line: Line | undefined = lines[i]): never => {
    throw FormatError.at(message, locate(text, line?.offset ?? text.length));
  };
  const take = (keyword: string, shape: RegExp, what: string): RegExpExecArray => {
    const line = lines[i];
    if (line === undefined) return fail(`the transcript ends before its ${keyword} line`);
    const match = shape.exec(line.text);
    if (match === null) return fail(`line ${i + 1} must be "${keyword} ${what}"`);
    i++;
    return match;
  };
  if (lines[0]?.text !== TRANSCRIPT_FIRST_LINE) fail(`a transcript starts with the line "${TRANSCRIPT_FIRST_LINE}"`, lines[0]);
  i = 1;
  const game = Number(take('game', /^game (\d{1,15})$/, 'id')[1]);
  const started = take('started', /^started (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)$/, 'an ISO 8601 UTC time')[1];
  const fieldLine = lines[i];
  const field = take('field', /^field (\d{1,4}) (\d{1,4})$/, 'width height');
  const width = Number(field[1]);
  const height = Number(field[2]);
  if (width < MIN_SIDE || height < MIN_SIDE || width > MAX_SIDE || height > MAX_SIDE) fail(`the field is ${width}x${height}; a Dots field is ${MIN_SIDE} to ${MAX_SIDE} points each way`, fieldLine);
  checkBoard(limits, width, height, locate(text, fieldLine.offset));
  const seconds = Number(take('time', /^time (\d{1,4})$/, 'seconds per move')[1]);
  const extraMove = take('extra', /^extra ([01])$/, '0 or 1')[1] === '1';
  const centralStart = take('start', /^start (central|anywhere)$/, 'central or anywhere')[1] === 'central';
  const players: string[] = [];
  while (lines[i]?.text.startsWith('player ')) {
    const match = take('player', /^player (\d) (\S+)$/, 'seat login');
    if (Number(match[1]) !== players.length + 1) fail(`player lines are numbered 1, 2, … in order; expected player ${players.length + 1}`, lines[i - 1]);
    players.push(match[2]);
  }
  if (players.length < 2 || players.length > 4) fail(`a game has 2 to 4 players, the transcript names ${players.length}`, lines[i - 1]);
  const headerEnd = lines[i - 1].offset + lines[i - 1].text.length;
  const events: TranscriptEvent[] = [];
  let moves = 0;
  let last = 0;
  const seatOf = (digit: string, line: Line): number => {
    const seat = Number(digit) - 1;
    if (seat < 0 || seat >= players.length) fail(`seat ${digit}: the game has players 1 to ${players.length}`, line);
    return seat;
  };
  const timeOf = (ms: string, line: Line): number => {
    const at = Number(ms);
    if (at < last) fail(`the time ${at} ms is earlier than the event before (${last} ms)`, line);
    last = at;
    return at;
  };
  for (; i < lines.length; i++) {
    const line = lines[i];
    const move = /^move (\d) (\d{1,2}) (\d{1,2}) (\d{1,12})$/.exec(line.text);
    if (move !== null) {
      if (++moves > limits.maxPlies) throw pliesExceeded(limits, locate(text, line.offset));
      events.push({ kind: 'move', seat: seatOf(move[1], line), x: Number(move[2]), y: Number(move[3]), at: timeOf(move[4], line) });
      continue;
    }
    const stop = /^stop (\d) (\S+) (\d{1,12})$/.exec(line.text);
    if (stop !== null) {
      if (!(STOP_REASONS as readonly string[]).includes(stop[2])) fail(`a stop's reason is one of ${STOP_REASONS.join(', ')}`, line);
      events.push({ kind: 'stop', seat: seatOf(stop[1], line), why: stop[2] as StopReason, at: timeOf(stop[3], line) });
      continue;
    }
    break;
  }
  let end: Transcript['end'] = null;
  if (lines[i]?.text.startsWith('end ')) {
    const line = lines[i];
    const match = take('end', /^end (\S+) (\d{1,12})$/, 'reason ms');
    if (!(END_REASONS as readonly string[]).includes(match[1])) fail(`an end's reason is one of ${END_REASONS.join(', ')}`, line);
    end = { why: match[1] as EndReason, at: timeOf(match[2], line) };
  }
  let writtenScores: number[] | null = null;
  if (lines[i]?.text.startsWith('score ')) {
    const line = lines[i];
    if (end === null || end.why === 'unfinished') fail('only a finished game has a score line (after its end line)', line);
    writtenScores = take('score', /^score (\d{1,6}(?: \d{1,6})*)$/, 'one number per player')[1].split(' ').map(Number);
    if (writtenScores.length !== players.length) fail(`the score line gives ${writtenScores.length} numbers for ${players.length} players`, line);
  }
  for (; i < lines.length; i++) {
    if (lines[i].text !== '') fail(`line ${i + 1} is not an event; after the end only the score line may follow`);
  }
  return {
    transcript: { game, started, width, height, seconds, extraMove, centralStart, players, events, end, scores: writtenScores },
    headerEnd,
    writtenScores,
  };
}
