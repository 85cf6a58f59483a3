import type { Family, GameEnding, JsonValue, PlayerEntry, PlayerOutcome, Problem } from '../formats/plugin.js';
import type { GameStatus, GameView, RawGame } from './game-view.js';

/**
 * The rows of games the repositories read, as the driver hands them over (bigint ids as text), and
 * how they become the archive's views. The columns are those of games.sql.ts.
 */

/** The columns named through the lookups (`NAMED_COLUMNS`). */
interface NamedRow {
  readonly publisher: string | null;
  readonly version: string | null;
  readonly family: Family | null;
  readonly status: GameStatus;
  readonly media_type: string;
}

/** A row of `SUMMARY_COLUMNS` (the analysis's columns null when the game has none), with Header and Body when asked for. */
export interface SummaryRow extends NamedRow {
  readonly id: string;
  readonly status_reason: string | null;
  readonly sha256: string;
  readonly size: number;
  readonly filename: string | null;
  readonly owner: string | null;
  readonly uploaded_at: Date;
  readonly move_count: number | null;
  readonly result: string | null;
  readonly legal: boolean | null;
  readonly consistent: boolean | null;
  readonly problems: Problem[] | null;
  readonly details: Record<string, JsonValue> | null;
  readonly board_width: number | null;
  readonly board_height: number | null;
  readonly date_played: string | null;
  readonly event: string | null;
  readonly rules: string | null;
  readonly ending: GameEnding | null;
  readonly margin: number | null;
  /** From game_identities (absent where a statement does not read it). */
  readonly signature?: string | null;
  readonly header?: string | null;
  readonly body?: string | null;
}

/** A row of `RAW_COLUMNS`. */
export interface RawRow extends NamedRow {
  readonly raw: Buffer;
  readonly sha256: string;
  readonly filename: string | null;
  readonly owner: string | null;
}

/** A row of `PLAYERS_OF`. */
export interface PlayerRow {
  readonly game_id: string;
  readonly seat: number;
  readonly name: string | null;
  readonly external_id: string | null;
  readonly color: string | null;
  readonly rating: string | null;
  readonly declared_points: number | null;
  readonly points: number | null;
  readonly captures: number | null;
  readonly outcome: PlayerOutcome | null;
}

/** The players of `PLAYERS_OF` rows, by game id. */
export function playersByGame(rows: readonly PlayerRow[]): Map<number, PlayerEntry[]> {
  const byGame = new Map<number, PlayerEntry[]>();
  for (const row of rows) {
    const gameId = Number(row.game_id);
    const list = byGame.get(gameId) ?? [];
    list.push({
      seat: row.seat,
      name: row.name,
      externalId: row.external_id,
      color: row.color,
      rating: row.rating,
      declaredPoints: row.declared_points,
      points: row.points,
      captures: row.captures,
      outcome: row.outcome,
    });
    byGame.set(gameId, list);
  }
  return byGame;
}

/** A row of `TAGS_OF`. */
export interface TagRow {
  readonly game_id: string;
  readonly tag: string;
}

/** The tags of `TAGS_OF` rows, by game id, in the rows' order. */
export function tagsByGame(rows: readonly TagRow[]): Map<number, string[]> {
  const byGame = new Map<number, string[]>();
  for (const row of rows) {
    const gameId = Number(row.game_id);
    const list = byGame.get(gameId);
    if (list === undefined) byGame.set(gameId, [row.tag]);
    else list.push(row.tag);
  }
  return byGame;
}

export function toRaw(row: RawRow): RawGame {
  return {
    raw: row.raw,
    sha256: row.sha256,
    mediaType: row.media_type,
    filename: row.filename,
    owner: row.owner,
    publisher: row.publisher,
    version: row.version,
    status: row.status,
  };
}

/** The view of a summary row with its players; with Header and Body when `texts`. */
export function toView(row: SummaryRow, players: PlayerEntry[], texts = false): GameView {
  const view: GameView = {
    id: Number(row.id),
    publisher: row.publisher,
    version: row.version,
    family: row.family,
    status: row.status,
    statusReason: row.status_reason,
    sha256: row.sha256,
    size: row.size,
    mediaType: row.media_type,
    filename: row.filename,
    owner: row.owner,
    uploadedAt: row.uploaded_at,
    players,
    analysis:
      row.move_count === null || row.move_count === undefined
        ? null
        : {
            // A game with an analysis row has these columns (NOT NULL in game_analyses).
            moveCount: row.move_count,
            result: row.result,
            legal: row.legal as boolean,
            consistent: row.consistent as boolean,
            problems: row.problems as Problem[],
            details: row.details as Record<string, JsonValue>,
            facts: {
              boardWidth: row.board_width,
              boardHeight: row.board_height,
              datePlayed: row.date_played,
              event: row.event,
              rules: row.rules,
              ending: row.ending,
              margin: row.margin,
              signature: row.signature ?? null,
            },
          },
  };
  if (texts) {
    view.header = row.header;
    view.body = row.body;
  }
  return view;
}
