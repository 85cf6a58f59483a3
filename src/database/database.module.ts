import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { databaseOptions } from './database-options.js';
import { DATABASE_TARGET_PROVIDER, DatabaseTarget } from './database-target.js';

@Module({ providers: [DATABASE_TARGET_PROVIDER], exports: [DatabaseTarget] })
class DatabaseTargetModule {}

/** The TypeORM connection; migrations run when it opens. */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      imports: [DatabaseTargetModule],
      inject: [DatabaseTarget],
      useFactory: (target: DatabaseTarget) => databaseOptions(target.url, target.poolSize),
    }),
  ],
})
export class DatabaseModule {}
