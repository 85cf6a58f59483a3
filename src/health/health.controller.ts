import { Controller, Get } from '@nestjs/common';
import { Public } from '../accounts/requires.decorator.js';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiPropertyOptional, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ProblemException } from '../common/problem-codes.js';
import { DATABASE_RETRY_AFTER_S } from '../common/problem-details.filter.js';
import { DatabaseTarget } from '../database/database-target.js';
import { DatabaseRepository } from '../database/database.repository.js';
import { ReadReplicas } from '../database/read-replicas.js';

export class ReplicaHealthDto {
  @ApiProperty({ type: 'integer', minimum: 1, description: 'Its place in `DATABASE_REPLICA_URLS`, from 1.' })
  replica: number;

  @ApiProperty({ description: 'Whether reads go to it now: it answers, and has replayed everything the primary had written `DATABASE_REPLICA_MAX_LAG_MS` ago.' })
  inRotation: boolean;

  @ApiProperty({ type: 'integer', nullable: true, description: 'How far behind the primary its last check found it, in ms; null when it does not answer, is further behind than the bound, or is no standby.' })
  behindMs: number | null;
}

export class HealthDto {
  /** `ok`: the service runs and its database answers. */
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';

  @ApiPropertyOptional({
    type: [ReplicaHealthDto],
    description: 'The read replicas (`DATABASE_REPLICA_URLS`), when there are any. A replica out of rotation does not make the service unhealthy: its reads go to the primary.',
  })
  replicas?: ReplicaHealthDto[];
}

@ApiTags('health')
@Public()
@Controller('health')
export class HealthController {
  constructor(
    private readonly database: DatabaseRepository,
    private readonly target: DatabaseTarget,
    private readonly replicas: ReadReplicas,
  ) {}

  @Get()
  @ApiOperation({ operationId: 'health', summary: 'Liveness and readiness: the service runs and its database answers' })
  @ApiOkResponse({ type: HealthDto })
  @ApiResponse({
    status: 503,
    description:
      'The database does not answer (`service.unavailable`). When the embedded database has stopped (a PANIC: most often a full disk under its WAL) and is being restarted, `detail` says why, since when, and how the restarts go; it serves again by itself once it can write.',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } },
    headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } as never },
  })
  async check(): Promise<HealthDto> {
    const outage = this.target.embeddedOutage();
    if (outage !== null) {
      const tried = outage.attempts === 0 ? 'restarting it' : `${outage.attempts} restart${outage.attempts === 1 ? '' : 's'} failed so far, the last: ${outage.lastError}`;
      throw new ProblemException(
        503,
        'service.unavailable',
        `the embedded database stopped at ${outage.since.toISOString()}: ${outage.cause}; it is restarted until it can write again (${tried})`,
        DATABASE_RETRY_AFTER_S,
      );
    }
    try {
      await this.database.ping();
    } catch (error) {
      throw new ProblemException(503, 'service.unavailable', `the database does not answer: ${(error as Error).message}`, DATABASE_RETRY_AFTER_S);
    }
    return this.replicas.configured ? { status: 'ok', replicas: this.replicas.states() } : { status: 'ok' };
  }
}
