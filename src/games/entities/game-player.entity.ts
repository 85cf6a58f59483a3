import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './bigint-number.transformer.js';

/** A player of an indexed game, with the points the file declares and the points the replay gives. */
@Entity('game_players')
export class GamePlayerEntity {
  @PrimaryColumn('bigint', { name: 'game_id', transformer: bigintAsNumber })
  gameId: number;

  @PrimaryColumn('integer')
  seat: number;

  @Column('text', { nullable: true })
  name: string | null;

  /** The name as search compares it (see player-name-key.ts). */
  @Column('text', { name: 'name_key', nullable: true })
  nameKey: string | null;

  @Column('text', { name: 'external_id', nullable: true })
  externalId: string | null;

  @Column('text', { nullable: true })
  color: string | null;

  @Column('double precision', { name: 'declared_points', nullable: true })
  declaredPoints: number | null;

  @Column('double precision', { nullable: true })
  points: number | null;

  @Column('integer', { nullable: true })
  captures: number | null;
}
