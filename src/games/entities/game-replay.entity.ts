import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ReplayPly } from '../../formats/plugin.js';
import { bigintAsNumber } from './bigint-number.transformer.js';

/** The replay of an indexed game, ply by ply, kept apart so searches never read it. */
@Entity('game_replays')
export class GameReplayEntity {
  @PrimaryColumn('bigint', { name: 'game_id', transformer: bigintAsNumber })
  gameId: number;

  @Column('jsonb')
  // Typed loosely: TypeORM's deep partial types cannot recurse through JSON values.
  plies: readonly ReplayPly[] | object[];
}
