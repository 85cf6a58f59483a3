import { Controller, Get, ServiceUnavailableException } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export class HealthDto {
  /** `ok` when the database answers. */
  status: string;
}

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Get()
  @ApiOperation({ operationId: 'health', summary: 'Liveness and readiness: the service runs and its database answers' })
  @ApiOkResponse({ type: HealthDto })
  @ApiResponse({ status: 503, description: 'The database does not answer.' })
  async check(): Promise<HealthDto> {
    try {
      await this.dataSource.query('SELECT 1');
    } catch (error) {
      throw new ServiceUnavailableException(`the database does not answer: ${(error as Error).message}`);
    }
    return { status: 'ok' };
  }
}
