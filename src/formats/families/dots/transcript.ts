import type { DotsEnd } from '../../../rules/dots/index.js';
import type { FormatDescriptor } from '../../plugin.js';

/**
 * The transcript of a game played on Tabula's Dots server, as a plain model and as text. The text
 * is line-based, one fact per line, in the order things happened:
 *
 * ```
 * TABULA DOTS TRANSCRIPT 1
 * game 17
 * started 2026-11-23T01:02:03.000Z
 * field 10 10
 * time 30
 * extra 1
 * start central
 * player 1 alice
 * player 2 bob
 * move 1 4 4 1250
 * stop 2 timeout 31250
 * end last_player 31250
 * score 0 0
 * ```
 *
 * `move seat x y ms`: seat from 1 (the 204 digits), x the column and y the row from 0 (the
 * protocol's TRN), ms the milliseconds since `started`. `stop seat why ms`: the player stops
 * placing dots. `end why ms` and `score` (the final captures, a cache the replay checks) close a
 * finished game; an unfinished one ends `end unfinished ms` and has no score line.
 */
/** The format of the transcripts the archive's Dots server writes (read by the dots-transcript plugin). */
export const DOTS_TRANSCRIPT: FormatDescriptor = {
  publisher: 'Dots server',
  version: 'transcript',
  family: 'dots',
  title: "Transcript of a game played on Tabula's Dots server: players, options, every dot and stop with its time, the end",
  mediaTypes: ['text/plain'],
  extensions: ['.txt'],
};

export const TRANSCRIPT_FIRST_LINE = 'TABULA DOTS TRANSCRIPT 1';

/**
 * Why a player stopped placing dots:
 * - `srd`: the player sent SRD;
 * - `fin`: the player left the game (FIN);
 * - `logout`: the player logged out (LGT) during the game;
 * - `timeout`: the move timer ran out (also when the player's connection was gone).
 */
export const STOP_REASONS = ['srd', 'fin', 'logout', 'timeout'] as const;
export type StopReason = (typeof STOP_REASONS)[number];

/** How a transcript ends: a rule's end (the engine's {@link DotsEnd}), or `unfinished` (the server stopped). */
export const END_REASONS = ['no_free_point', 'last_player', 'all_stopped', 'unfinished'] as const;
export type EndReason = DotsEnd | 'unfinished';

export type TranscriptEvent =
  | { readonly kind: 'move'; readonly seat: number; readonly x: number; readonly y: number; readonly at: number }
  | { readonly kind: 'stop'; readonly seat: number; readonly why: StopReason; readonly at: number };

export interface Transcript {
  /** The server's game id. */
  readonly game: number;
  /** When the game started (it filled up), ISO 8601 UTC. */
  readonly started: string;
  readonly width: number;
  readonly height: number;
  /** Seconds per move. */
  readonly seconds: number;
  readonly extraMove: boolean;
  /** First dots in the central area (always on the server; written so the replay need not assume it). */
  readonly centralStart: boolean;
  /** Logins by seat (seat 0 first). */
  readonly players: readonly string[];
  /** Seats are 0-based here; the text writes them from 1. */
  readonly events: readonly TranscriptEvent[];
  readonly end: { readonly why: EndReason; readonly at: number } | null;
  /** Final captures per seat; null while unfinished. */
  readonly scores: readonly number[] | null;
}

/** The external id a transcript's players carry in the archive: the login, marked as the server's. */
export function transcriptExternalId(login: string): string {
  return `tabula-dots:${login}`;
}

/**
 * A running game's transcript ended as unfinished (the server stopped during it), at the time of
 * its last event.
 */
export function endUnfinished(text: string): string {
  const lines = text.trimEnd().split('\n');
  const last = lines[lines.length - 1];
  const at = /^(?:move|stop) .* (\d+)$/.exec(last)?.[1] ?? '0';
  return `${lines.join('\n')}\nend unfinished ${at}\n`;
}

export function writeTranscript(t: Transcript): string {
  const lines = [
    TRANSCRIPT_FIRST_LINE,
    `game ${t.game}`,
    `started ${t.started}`,
    `field ${t.width} ${t.height}`,
    `time ${t.seconds}`,
    `extra ${t.extraMove ? 1 : 0}`,
    `start ${t.centralStart ? 'central' : 'anywhere'}`,
    ...t.players.map((login, seat) => `player ${seat + 1} ${login}`),
  ];
  for (const e of t.events) {
    lines.push(e.kind === 'move' ? `move ${e.seat + 1} ${e.x} ${e.y} ${e.at}` : `stop ${e.seat + 1} ${e.why} ${e.at}`);
  }
  if (t.end !== null) lines.push(`end ${t.end.why} ${t.end.at}`);
  if (t.scores !== null) lines.push(`score ${t.scores.join(' ')}`);
  return `${lines.join('\n')}\n`;
}
