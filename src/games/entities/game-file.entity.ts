import { Column, Entity, PrimaryColumn } from 'typeorm';
import { bigintAsNumber } from './bigint-number.transformer.js';

/** The verbatim bytes of a stored game, kept apart so searches read narrow rows. */
@Entity('game_files')
export class GameFileEntity {
  @PrimaryColumn('bigint', { name: 'game_id', transformer: bigintAsNumber })
  gameId: number;

  @Column('bytea')
  raw: Buffer;
}
