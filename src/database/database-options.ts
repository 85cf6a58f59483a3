import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { ENTITIES } from '../games/entities/index.js';

/** TypeORM options for a PostgreSQL URL; the schema comes only from migrations, never from synchronize. */
export function databaseOptions(url: string, poolSize: number): DataSourceOptions {
  return {
    type: 'postgres',
    url,
    entities: [...ENTITIES],
    migrations: [...MIGRATIONS],
    migrationsRun: true,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error', 'warn', 'migration'],
    extra: { max: poolSize, application_name: 'tabula' },
  };
}
