import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseOptions } from './database-options.js';
import { DATABASE_TARGET_PROVIDER, DatabaseTarget } from './database-target.js';
import { DatabaseRepository } from './database.repository.js';
import { EmbeddedMaintenance } from './embedded-maintenance.js';

@Module({ providers: [DATABASE_TARGET_PROVIDER], exports: [DatabaseTarget] })
class DatabaseTargetModule {}

/**
 * The TypeORM connection, opened once the pending migrations have run; the embedded database's
 * upkeep; the statements about the database itself (DatabaseRepository: GET /health's among them).
 */
@Module({
  providers: [EmbeddedMaintenance, DatabaseRepository],
  exports: [DatabaseRepository, DatabaseTargetModule],
  imports: [
    DatabaseTargetModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseTargetModule],
      inject: [DatabaseTarget],
      useFactory: async (target: DatabaseTarget) => {
        await target.migrate();
        return databaseOptions(target.url, target.poolSize);
      },
    }),
  ],
})
export class DatabaseModule {}
