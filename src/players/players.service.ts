import { Injectable } from '@nestjs/common';
import { ProblemException } from '../common/problem-codes.js';
import { InjectReads } from '../database/read-replicas.js';
import type { Reads } from '../database/read-replicas.js';
import { controlCharacterIn } from '../common/text-parameters.middleware.js';
import type { Family } from '../formats/plugin.js';
import type { FamilyRecordDto, FindPlayersQuery, PlayerStatisticsDto, PlayerGamesPageDto, PlayerGamesQuery, PlayerPageDto, PlayerRecordDto } from './dto/player.dto.js';
import { OutcomeCount, PlayersRepository } from './players.repository.js';

const DEFAULT_PAGE_SIZE = 20;
const NAMES_SHOWN = 10;

/** Players and their statistics, counted from each game's per-player outcome. */
@Injectable()
export class PlayersService {
  /** Every read on a replica when there is one (DATABASE_REPLICA_URLS); a player it does not know yet is looked for on the primary. */
  constructor(@InjectReads(PlayersRepository) private readonly players: Reads<PlayersRepository>) {}

  async find(query: FindPlayersQuery): Promise<PlayerPageDto> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.players.read((players) => players.find(query.name, query.after, limit + 1));
    const page = rows.slice(0, limit);
    return { items: page, next: rows.length > limit ? page[page.length - 1].key : null };
  }

  async get(key: string): Promise<PlayerStatisticsDto> {
    checkKey(key);
    const counts = await this.players.read((players) => players.outcomes(key), (counts) => counts.length === 0);
    if (counts.length === 0) throw notFound(key);
    const families = [...new Set(counts.map((count) => count.family).filter((family): family is Family => family !== null))].sort();
    return {
      key,
      names: await this.players.read((players) => players.names(key, NAMES_SHOWN)),
      overall: record(counts),
      byFamily: families.map((family): FamilyRecordDto => ({ family, ...record(counts.filter((count) => count.family === family)) })),
    };
  }

  async games(key: string, query: PlayerGamesQuery): Promise<PlayerGamesPageDto> {
    checkKey(key);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const rows = await this.players.read((players) => players.games(key, query.before, limit + 1), (rows) => rows.length === 0 && query.before === undefined);
    if (rows.length === 0 && query.before === undefined) throw notFound(key);
    const page = rows.slice(0, limit);
    return {
      items: page.map((row) => ({ ...row, uploadedAt: row.uploadedAt.toISOString() })),
      next: rows.length > limit ? page[page.length - 1].gameId : null,
    };
  }
}

/** Played, won, lost, drawn, unfinished and unknown, summed over the counts given. */
function record(counts: readonly OutcomeCount[]): PlayerRecordDto {
  const total = (outcome: OutcomeCount['outcome']) => counts.filter((count) => count.outcome === outcome).reduce((sum, count) => sum + count.count, 0);
  return {
    played: counts.reduce((sum, count) => sum + count.count, 0),
    won: total('won'),
    lost: total('lost'),
    drawn: total('drawn'),
    unfinished: total('unfinished'),
    unknown: total(null),
  };
}

function checkKey(key: string): void {
  const control = controlCharacterIn(key);
  if (control || key.length === 0 || key.length > 200) {
    throw new ProblemException(400, control ? 'request.control_character' : 'request.invalid', `"${key.slice(0, 40)}" is not a player key: use a key from GET /players`);
  }
}

function notFound(key: string): ProblemException {
  return new ProblemException(404, 'player.not_found', `no game in the archive has a player "${key}"`);
}
