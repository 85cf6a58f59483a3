import { Injectable } from '@nestjs/common';
import { ProblemException } from '../common/problem-codes.js';
import { compose, identityPlyLength, inverse, transformName } from '../formats/families/positions.js';
import type { Family } from '../formats/plugin.js';
import { identityHash, PREFIX_PLIES } from './identity-rows.js';
import type { Transform, TransformName } from '../formats/families/positions.js';
import { toGameSummaryDto } from '../games/game.mapper.js';
import type { GameId } from '../games/game-id.pipe.js';
import type { RelativesDto, RelativesQuery } from './dto/relatives.dto.js';
import { IdentityRepository } from './identity.repository.js';
import type { CopyStanding, IdentityOrientation } from './identity.repository.js';

const DEFAULT_RELATIVES = 100;

/** One game, many files (docs/identity.md): which stored games hold a game, or a part of it. */
@Injectable()
export class IdentityService {
  constructor(private readonly identities: IdentityRepository) {}

  async relatives(id: GameId, query: RelativesQuery): Promise<RelativesDto> {
    const own = await this.identities.own(id);
    if (!own) {
      if (!(await this.identities.gameExists(id))) throw new ProblemException(404, 'game.not_found', `no game has id ${id}`);
      throw new ProblemException(409, 'identity.not_indexed', `game ${id} has no identity: its family's replay gives none, or it was stored before identities were kept or with GAME_IDENTITY=false (POST /reindex gives it one)`);
    }
    // The heads a game that ended by rule in fewer than 30 plies would have if it were this game's beginning.
    const plyLength = identityPlyLength(own.family as Family);
    const startLength = own.sequence.length - own.plies * plyLength;
    const shortHeads = Array.from({ length: Math.max(0, Math.min(own.plies - 1, PREFIX_PLIES - 1)) }, (_, k) => identityHash(own.family, own.sequence, startLength + (k + 1) * plyLength));
    const rows = await this.identities.relatives(id, query.limit ?? DEFAULT_RELATIVES, shortHeads, own.ended && own.plies < PREFIX_PLIES);
    return {
      items: rows.map((row) => ({
        ...toGameSummaryDto(row.game),
        relation: row.relation,
        transform: transformBetween(own, row),
        coloursSwapped: own.firstSeat !== null && row.firstSeat !== null && own.firstSeat !== row.firstSeat,
      })),
    };
  }

  /** For each new game, the games already stored that hold the same game. */
  sameAs(gameIds: readonly number[]): Promise<Map<number, number[]>> {
    return this.identities.sameAs(gameIds);
  }

  /** How each game stands among its copies. */
  standings(gameIds: readonly number[]): Promise<Map<number, CopyStanding>> {
    return this.identities.standings(gameIds);
  }
}

/**
 * The symmetry turning game `from`'s board into game `to`'s, from the transforms that turn each into
 * their sequences' shared orientation: null when the boards agree as they stand (a symmetric game
 * may be turned several ways; the identity is preferred), else the least of those that do it.
 */
export function transformBetween(from: IdentityOrientation, to: IdentityOrientation): TransformName | null {
  let least: Transform | null = null;
  for (let f = 0; f < 8; f++) {
    if (!(from.transforms & (1 << f))) continue;
    for (let t = 0; t < 8; t++) {
      if (!(to.transforms & (1 << t))) continue;
      const between = compose(inverse(t as Transform), f as Transform);
      if (between === 0) return null;
      if (least === null || between < least) least = between;
    }
  }
  return least === null ? null : transformName(least);
}
