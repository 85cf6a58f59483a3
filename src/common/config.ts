import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, validateSync } from 'class-validator';

/**
 * The service's settings, read from the environment once at boot. A bad value stops the
 * process with a message naming the variable, rather than surfacing later as odd behaviour.
 */
export class AppConfig {
  /** HTTP port. */
  @Transform(({ value }) => (value === undefined ? 3000 : Number(value)))
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT = 3000;

  /** Interface to listen on. */
  @IsString()
  HOST = '0.0.0.0';

  /** Where the embedded database keeps its files when no DATABASE_URL is given (`memory://` keeps nothing). */
  @IsString()
  DATA_DIR = './data';

  /** A PostgreSQL connection string; without it the embedded PostgreSQL (PGlite) is used. */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\//, { message: 'DATABASE_URL must be a postgres:// connection string' })
  DATABASE_URL?: string;

  /** Connections in the pool to an external PostgreSQL server. */
  @Transform(({ value }) => (value === undefined ? 10 : Number(value)))
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE = 10;

  /** Comma-separated API keys; when set, uploads and deletes need `Authorization: Bearer <key>`. */
  @IsOptional()
  @IsString()
  API_KEYS?: string;

  /** Largest accepted upload in bytes. */
  @Transform(({ value }) => (value === undefined ? 10 * 1024 * 1024 : Number(value)))
  @IsInt()
  @Min(1)
  MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

  /** Time a plugin may spend on open-ended analysis of one upload (e.g. solving a peg board), in ms. */
  @Transform(({ value }) => (value === undefined ? 2000 : Number(value)))
  @IsInt()
  @Min(0)
  ANALYSIS_BUDGET_MS = 2000;

  /** Nest log levels to print, most severe first. */
  @IsIn(['error', 'warn', 'log', 'debug', 'verbose'])
  LOG_LEVEL: 'error' | 'warn' | 'log' | 'debug' | 'verbose' = 'log';

  get apiKeys(): readonly string[] {
    return (this.API_KEYS ?? '')
      .split(',')
      .map((key) => key.trim())
      .filter((key) => key.length > 0);
  }
}

export class ConfigError extends Error {}

const SETTINGS = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'DATABASE_POOL_SIZE',
  'API_KEYS',
  'MAX_UPLOAD_BYTES',
  'ANALYSIS_BUDGET_MS',
  'LOG_LEVEL',
];

/** Reads and validates the settings; throws a {@link ConfigError} listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const given = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => SETTINGS.includes(key) && value !== undefined && value !== ''),
  );
  const config = plainToInstance(AppConfig, given);
  const errors = validateSync(config, { forbidUnknownValues: true });
  if (errors.length > 0) {
    const lines = errors.flatMap((error) => Object.values(error.constraints ?? {}).map((text) => `  ${error.property}: ${text}`));
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return config;
}
