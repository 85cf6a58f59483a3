import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseOptions } from './database-options.js';
import { DATABASE_TARGET_PROVIDER, DatabaseTarget } from './database-target.js';

@Module({ providers: [DATABASE_TARGET_PROVIDER], exports: [DatabaseTarget] })
class DatabaseTargetModule {}

/** The TypeORM connection, opened once the pending migrations have run. */
@Module({
  imports: [
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
