import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ProblemException } from '../common/problem-codes.js';
import { DATABASE_RETRY_AFTER_S } from '../common/problem-details.filter.js';
import { DatabaseRepository } from '../database/database.repository.js';

export class HealthDto {
  /** `ok`: the service runs and its database answers. */
  @ApiProperty({ enum: ['ok'] })
  status: 'ok';
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(private readonly database: DatabaseRepository) {}

  @Get()
  @ApiOperation({ operationId: 'health', summary: 'Liveness and readiness: the service runs and its database answers' })
  @ApiOkResponse({ type: HealthDto })
  @ApiResponse({
    status: 503,
    description: 'The database does not answer (`service.unavailable`).',
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetailsDto' } } },
    headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } as never },
  })
  async check(): Promise<HealthDto> {
    try {
      await this.database.ping();
    } catch (error) {
      throw new ProblemException(503, 'service.unavailable', `the database does not answer: ${(error as Error).message}`, DATABASE_RETRY_AFTER_S);
    }
    return { status: 'ok' };
  }
}
