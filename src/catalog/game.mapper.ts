import type { GameDto, GameFactsDto, GameSummaryDto, ProblemDto } from './dto/game.dto.js';
import type { GameFacts, GameRecord, PositionTrack, UploadedFile } from '../formats/plugin.js';
import type { GameView, GameViewWithJsonText } from './game-view.js';
import { normalisedRank } from '../indexes/ranks/rank-filter.js';

/** The view of a game just inserted, built from what was written rather than read back. */
export function viewOfNewGame(
  id: number,
  uploadedAt: Date,
  sha256: string,
  file: UploadedFile,
  mediaType: string,
  filename: string | null,
  record: GameRecord & { readonly positions?: PositionTrack | null },
  owner: string | null,
): GameView {
  const analysis = record.analysis;
  return {
    id,
    publisher: record.publisher,
    version: record.version,
    header: record.header,
    body: record.body,
    family: record.family,
    status: analysis ? 'indexed' : 'stored',
    statusReason: record.notIndexedReason ?? null,
    sha256,
    size: file.bytes.length,
    mediaType,
    filename,
    owner,
    uploadedAt,
    players: analysis ? [...analysis.players] : [],
    analysis: analysis
      ? {
          moveCount: analysis.moveCount,
          result: analysis.result,
          legal: analysis.verdict.legal,
          consistent: analysis.verdict.consistent,
          problems: [...analysis.verdict.problems],
          details: { ...analysis.details },
          // The signature is the archive's, from the identity the stored game got.
          facts: { ...analysis.facts, signature: record.positions?.identity?.signature ?? null },
        }
      : null,
  };
}

export function toGameSummaryDto(view: GameView): GameSummaryDto {
  return dtoOf(view, view.analysis?.problems, view.analysis?.details, false);
}

export function toGameDto(view: GameView): GameDto {
  return dtoOf(view, view.analysis?.problems, view.analysis?.details, true) as GameDto;
}

/**
 * The DTO of a view in one object (what an export writes for every game: no copies on the way),
 * its problems and details given apart, with Header and Body last when `texts`. A player without a
 * rating, and facts without an ending or margin, get null there (views made from a reading may lack
 * them); each player gets the rank its rating holds (`rank`, null when none).
 */
function dtoOf(view: GameView | GameViewWithJsonText, problems: unknown, details: unknown, texts: boolean): GameSummaryDto {
  const analysis = view.analysis;
  const dto: GameSummaryDto & Partial<Pick<GameDto, 'header' | 'body'>> = {
    id: view.id,
    publisher: view.publisher,
    version: view.version,
    family: view.family,
    status: view.status,
    statusReason: view.statusReason,
    sha256: view.sha256,
    size: view.size,
    mediaType: view.mediaType,
    filename: view.filename,
    owner: view.owner,
    uploadedAt: view.uploadedAt.toISOString(),
    tags: view.tags ? [...view.tags] : [],
    players: view.players.map((player) => ({ ...player, rating: player.rating ?? null, rank: normalisedRank(player.rating) })) as GameSummaryDto['players'],
    moveCount: analysis?.moveCount ?? null,
    result: analysis?.result ?? null,
    verdict: analysis ? { legal: analysis.legal, consistent: analysis.consistent, problems: problems as ProblemDto[] } : null,
    details: analysis ? (details as GameDto['details']) : null,
    facts: analysis ? withNullFacts(analysis.facts) : null,
  };
  if (texts) {
    dto.header = view.header ?? null;
    dto.body = view.body ?? null;
  }
  return dto;
}

function withNullFacts(facts: GameFacts): GameFactsDto {
  return facts.ending === undefined || facts.margin === undefined || facts.signature === undefined
    ? { ...facts, ending: facts.ending ?? null, margin: facts.margin ?? null, signature: facts.signature ?? null }
    : (facts as GameFactsDto);
}

/*
 * Stand-ins for problems and details while the rest of a game is written as JSON. Text from the
 * database never holds U+0000 (PostgreSQL text cannot), so their written forms match nothing else.
 */
const PROBLEMS_STAND_IN = '\u0000problems';
const DETAILS_STAND_IN = '\u0000details';
const PROBLEMS_WRITTEN = JSON.stringify(PROBLEMS_STAND_IN);
const DETAILS_WRITTEN = JSON.stringify(DETAILS_STAND_IN);

/**
 * A game as JSON, exactly `JSON.stringify(toGameDto(…))` once its pieces are joined, with problems
 * and details written as the JSON text stored instead of parsed and written again (most of a bulk
 * export's work otherwise). The pieces are for a writer that encodes them one by one: nothing is
 * joined, and Header and Body are written apart from the rest, so a Header with a character beyond
 * Latin-1 does not make the whole line (its Body the most of it) a string of two bytes a character.
 */
export function gameJsonPieces(view: GameViewWithJsonText): string[] {
  const texts = `,"header":${JSON.stringify(view.header ?? null)},"body":`;
  const body = JSON.stringify(view.body ?? null);
  if (view.analysis === null) return [withoutClose(JSON.stringify(dtoOf(view, undefined, undefined, false))), texts, body, '}'];
  const { problems, details } = view.analysis;
  const json = JSON.stringify(dtoOf(view, PROBLEMS_STAND_IN, DETAILS_STAND_IN, false));
  // A game's JSON has the verdict (with its problems) before the details (the unit test holds it to that).
  const p = json.indexOf(PROBLEMS_WRITTEN);
  const d = json.indexOf(DETAILS_WRITTEN, p + PROBLEMS_WRITTEN.length);
  return [json.slice(0, p), problems, json.slice(p + PROBLEMS_WRITTEN.length, d), details, withoutClose(json.slice(d + DETAILS_WRITTEN.length)), texts, body, '}'];
}

/** An object's JSON without its closing brace, for the properties written after it. */
const withoutClose = (json: string): string => json.slice(0, -1);
