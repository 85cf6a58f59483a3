import { Injectable } from '@nestjs/common';
import { ProblemException } from '../common/problem-codes.js';
import { compose, identityPlyLength, inverse, transformName } from '../formats/families/positions.js';
import { identityHash, PREFIX_PLIES } from '../indexes/identities/identity-rows.js';
import type { Transform, TransformName } from '../formats/families/positions.js';
import { toGameSummaryDto } from '../catalog/game.mapper.js';
import type { GameId } from '../http/game-id.pipe.js';
import type { RelativesDto, RelativesQuery } from './dto/relatives.dto.js';
import { IdentityRepository } from './identity.repository.js';
import type { CopyStanding, IdentityOrientation, OwnIdentity } from './identity.repository.js';

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
    const rows = await this.identities.relatives(id, query.limit ?? DEFAULT_RELATIVES, shortHeads(own), own.ended && own.plies < PREFIX_PLIES);
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
 * The heads a game that ended by rule in fewer than 30 plies would have if it were this game's
 * beginning: one for each of the game's first 29 plies that ends as such a game does — Go, a pass
 * after a pass; Dots, a pass or grounding (an identity's ply 0xfffc plus the mover). A game without
 * one asks nothing more than its own head.
 */
function shortHeads(own: OwnIdentity): string[] {
  if (own.family !== 'go' && own.family !== 'dots') return [];
  const plyLength = identityPlyLength(own.family);
  const startLength = own.sequence.length - own.plies * plyLength;
  const passes = (ply: number) => ply >= 0 && ((own.sequence[startLength + ply * plyLength] << 8) | own.sequence[startLength + ply * plyLength + 1]) >= 0xfffc;
  const heads: string[] = [];
  for (let k = 1; k < Math.min(own.plies, PREFIX_PLIES); k++) {
    // The first k plies end with ply k - 1 (0-based).
    if (passes(k - 1) && (own.family === 'dots' || passes(k - 2))) heads.push(identityHash(own.family, own.sequence, startLength + k * plyLength));
  }
  return heads;
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
