import { PageSize } from '../../common/page-size.js';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { GAME_SORTS } from '../game-view.js';
import type { GameSort } from '../game-view.js';
import { FAMILIES, GAME_ENDINGS } from '../../formats/plugin.js';
import type { Family, GameEnding } from '../../formats/plugin.js';
import { QueryBoolean } from '../../common/query-boolean.js';
import { ACCOUNT_NAME } from '../../common/account-name.js';
import { QueryTagFilter } from '../../common/tags.js';
import { QueryTextSearch } from '../../indexes/texts/text-query.js';
import { IsGoRank, NotBelow, rankFilterValue, ratingFilterValue } from '../../indexes/ranks/rank-filter.js';

/** A day played as the filters take it (with ISO 8601's own checks: no 2020-02-31). */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The largest SQL `int` (2^31-1): an integer filter compared with an `int` column goes no higher. */
export const MAX_SQL_INT = 2_147_483_647;

export class SearchGamesQuery {
  /**
   * Part of a player's name, compared case-insensitively (NFKC, lower case). Three characters or
   * more match anywhere in a name; one or two match whole names only (no index serves shorter parts).
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  player?: string;

  @IsOptional()
  @IsString()
  publisher?: string;

  @IsOptional()
  @IsString()
  version?: string;

  @ApiPropertyOptional({ enum: FAMILIES, enumName: 'Family' })
  @IsOptional()
  @IsIn(FAMILIES)
  family?: Family;

  /** `indexed`: read and replayed by a plugin; `stored`: kept verbatim only. */
  @ApiPropertyOptional({ enum: ['indexed', 'stored'], enumName: 'GameStatus' })
  @IsOptional()
  @IsIn(['indexed', 'stored'])
  status?: 'indexed' | 'stored';

  /** Only games whose cached values agree (true) or disagree (false) with the replay. */
  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'consistent must be true or false' })
  consistent?: boolean;

  /** Uploaded at or after this instant (ISO 8601). */
  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  uploadedFrom?: string;

  /** Uploaded before this instant (ISO 8601). */
  @ApiPropertyOptional({ type: String, format: 'date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  uploadedTo?: string;

  @PageSize(100, 20)
  limit?: number;

  /** Part of the name of a player who won the game (folded and matched as `player` is). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  winner?: string;

  /** A player's id in the source system (a VK id, a GoFans player id…), exactly. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  externalId?: string;

  /** The file name kept with the upload, exactly. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  filename?: string;

  /** Games the account published (its name, as `club-a`). */
  @IsOptional()
  @IsString()
  @Matches(ACCOUNT_NAME, { message: 'owner must be an account name: lower-case letters, digits, ".", "_" or "-"' })
  owner?: string;

  /** At least this many plies in the main line. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_SQL_INT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_SQL_INT)
  movesMin?: number;

  /** At most this many plies in the main line. */
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: MAX_SQL_INT })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_SQL_INT)
  movesMax?: number;

  /** Board size: `19` for square boards, or `39x32` (width x height). */
  @IsOptional()
  @Matches(/^[1-9]\d{0,3}(x[1-9]\d{0,3})?$/, { message: 'boardSize must be N or WxH, e.g. 19 or 39x32' })
  boardSize?: string;

  /** The event, whole, case-insensitively. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  event?: string;

  /** How the recorded result came about: `score`, `resignation`, `time`, `forfeit`, `draw` or `unknown`. */
  @ApiPropertyOptional({ enum: GAME_ENDINGS, enumName: 'GameEnding' })
  @IsOptional()
  @IsIn(GAME_ENDINGS)
  ending?: GameEnding;

  /** The winner's margin in points (where the result gives one) is at least this. */
  @ApiPropertyOptional({ type: Number, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  marginMin?: number;

  /** The winner's margin in points is at most this. */
  @ApiPropertyOptional({ type: Number, minimum: 0 })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  marginMax?: number;

  /** A player's rating or rank as the file writes it (`5d`, `2100`), whole, case-insensitively. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(50)
  rating?: string;

  /**
   * Go: games whose players are all this rank or stronger, on one scale (30k … 1k < 1d … 9d < 1p …
   * 9p; docs/ranks.md), in any form files write (`5d`, `5 dan`, `2段`, `3k`, `15級`, `9p`). A game
   * with a player whose rank no form reads is left out.
   */
  @ApiPropertyOptional({ type: String, maxLength: 20, example: '5d' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  @IsGoRank()
  rankMin?: string;

  /** Go: games whose players are all this rank or weaker (forms as `rankMin`); not below `rankMin`. */
  @ApiPropertyOptional({ type: String, maxLength: 20, example: '1p' })
  @IsOptional()
  @IsString()
  @MaxLength(20)
  @IsGoRank()
  @NotBelow('rankMin', rankFilterValue)
  rankMax?: string;

  /** Games whose players all have a numeric rating (as `2100` or `1850.5` in the file) of at least this. */
  @ApiPropertyOptional({ type: Number })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  ratingMin?: number;

  /** Games whose players all have a numeric rating of at most this; not below `ratingMin`. */
  @ApiPropertyOptional({ type: Number })
  @IsOptional()
  @Type(() => Number)
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @NotBelow('ratingMin', ratingFilterValue)
  ratingMax?: number;

  /** The rules the file names (`Japanese`, `Chinese`…), whole, case-insensitively. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  rules?: string;

  /** Played on or after this day (`YYYY-MM-DD`). */
  @ApiPropertyOptional({ type: String, format: 'date', pattern: DAY.source })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(DAY, { message: 'playedFrom must be a day, YYYY-MM-DD' })
  playedFrom?: string;

  /** Played on or before this day (`YYYY-MM-DD`). */
  @ApiPropertyOptional({ type: String, format: 'date', pattern: DAY.source })
  @IsOptional()
  @IsISO8601({ strict: true })
  @Matches(DAY, { message: 'playedTo must be a day, YYYY-MM-DD' })
  playedTo?: string;

  /**
   * Each game once (docs/identity.md): of the files holding a game — in any format, turned, with
   * colours swapped — the one stored first stands for the others, and a broken-off copy (30 plies
   * or more) for the game it is the beginning of; a game without an identity stands for itself.
   */
  @ApiPropertyOptional({ type: Boolean })
  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'unique must be true or false' })
  unique?: boolean;

  /** Go: games with this Dyer signature (12 characters, see the facts' `signature`), found however they are turned. */
  @ApiPropertyOptional({ type: String, pattern: '^([a-z]{2}|__){6}$' })
  @IsOptional()
  @Matches(/^([a-z]{2}|__){6}$/, { message: 'signature must be 12 characters: six points in SGF letters, `__` for a pass or a missing move' })
  signature?: string;

  /**
   * Tags, separated by commas: games with every tag named, and none of those written with a leading
   * `-` (`studied,-handicap`). At most 50; each 1 to 50 letters, digits, `-` or `_`, compared as
   * written (case counts) after Unicode NFC. A bad tag is 400 `tag.invalid`.
   */
  @ApiPropertyOptional({ type: String, example: 'studied,-handicap' })
  @IsOptional()
  @QueryTagFilter()
  @IsString()
  tags?: string;

  /**
   * Words the game's file writes — its comments, the game's comment, place, event and players — in
   * web-search syntax: `ladder tesuji` (all), `"sente resign"` (a phrase), `joseki -handicap` (none
   * of), `ko or seki`. Russian and English words are found in any of their forms. At most 500
   * characters and 32 words, else 400 `text.invalid`. Each listed game carries its `hits`.
   */
  @ApiPropertyOptional({ type: String, maxLength: 500, example: 'ladder -handicap' })
  @IsOptional()
  @QueryTextSearch()
  @IsString()
  text?: string;

  /** `-uploaded` (default): newest first; `uploaded`: oldest first; `played` / `-played`: by the day played, games with one only. */
  @ApiPropertyOptional({ enum: GAME_SORTS, enumName: 'GameSort', default: '-uploaded' })
  @IsOptional()
  @IsIn(GAME_SORTS)
  sort?: GameSort;

  /**
   * The `next` value of the previous page. It carries that search's filters: send it alone; a filter
   * sent beside it must agree with the cursor's, or the answer is 400. A cursor this archive did not
   * write is 400 `request.bad_cursor`.
   */
  @IsOptional()
  @IsString()
  cursor?: string;
}
