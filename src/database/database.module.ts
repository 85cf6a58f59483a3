import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DATABASE_TIMEOUTS, EMBEDDED_TIMEOUTS, databaseOptions } from './database-options.js';
import { DATABASE_TARGET_PROVIDER, DatabaseTarget } from './database-target.js';
import { DatabaseRepository } from './database.repository.js';
import { TableMaintenance } from './table-maintenance.js';
import { ReadReplicas } from './read-replicas.js';

@Module({ providers: [DATABASE_TARGET_PROVIDER], exports: [DatabaseTarget] })
class DatabaseTargetModule {}

/** The replicas reads may go to (DATABASE_REPLICA_URLS), for every module's services: see read-replicas.ts. */
@Global()
@Module({ providers: [ReadReplicas], exports: [ReadReplicas] })
class ReadReplicasModule {}

/**
 * The TypeORM connection, opened once the pending migrations have run; the embedded database's
 * upkeep; the statements about the database itself (DatabaseRepository: GET /health's among them);
 * the read replicas.
 */
@Module({
  providers: [TableMaintenance, DatabaseRepository],
  exports: [DatabaseRepository, DatabaseTargetModule],
  imports: [
    DatabaseTargetModule,
    ReadReplicasModule,
    TypeOrmModule.forRootAsync({
      imports: [DatabaseTargetModule],
      inject: [DatabaseTarget],
      useFactory: async (target: DatabaseTarget) => {
        await target.migrate();
        return databaseOptions(target.url, target.poolSize, target.isEmbedded ? EMBEDDED_TIMEOUTS : DATABASE_TIMEOUTS, { sharedSession: target.isEmbedded });
      },
    }),
  ],
})
export class DatabaseModule {}
