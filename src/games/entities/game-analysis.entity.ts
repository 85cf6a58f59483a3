import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Problem } from '../../formats/plugin.js';
import { bigintAsNumber } from './bigint-number.transformer.js';

/** What replaying an indexed game found: its length, outcome and the verdict on the file's own caches. */
@Entity('game_analyses')
export class GameAnalysisEntity {
  @PrimaryColumn('bigint', { name: 'game_id', transformer: bigintAsNumber })
  gameId: number;

  @Column('integer', { name: 'move_count' })
  moveCount: number;

  @Column('text', { nullable: true })
  result: string | null;

  @Column('boolean')
  legal: boolean;

  @Column('boolean')
  consistent: boolean;

  @Column('json')
  problems: readonly Problem[];

  @Column('json')
  // Typed loosely: TypeORM's deep partial types cannot recurse through JsonValue.
  details: object;
}
