import { Logger } from '@nestjs/common';
import type { BeforeApplicationShutdown, OnApplicationBootstrap } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { ConfigError } from '../common/config.js';
import type { AppConfig } from '../common/config.js';
import { ProblemException } from '../common/problem-codes.js';
import { REPLAY_PARTS } from '../formats/plugin.js';
import type { ReplayPart } from '../formats/plugin.js';
import type { GameIndex, IndexDefinition } from './game-index.js';
import { GAME_INDEXES } from './registry.js';

/** The index every route that shows a game reads: it cannot be turned off. */
const ALWAYS_ON = 'facts';

/**
 * The indexes the settings keep, in the registry's order: INDEXES (every registered one when unset),
 * less `positions` with POSITION_INDEX=false and `identities` with GAME_IDENTITY=false (the older
 * settings, kept as aliases). A name no index has, or a list without `facts`, is a ConfigError.
 */
export function chosenIndexes(config: AppConfig, registered: readonly IndexDefinition[] = GAME_INDEXES): IndexDefinition[] {
  const known = registered.map((definition) => definition.name);
  const duplicate = known.find((name, at) => known.indexOf(name) !== at);
  if (duplicate !== undefined) throw new ConfigError(`two indexes are named ${duplicate}`);
  const asked = config.indexNames ?? known;
  const unknown = asked.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new ConfigError(`Invalid configuration:\n  INDEXES: ${unknown.map((name) => `"${name.slice(0, 40)}"`).join(', ')} is no index: the archive keeps ${known.join(', ')}`);
  if (!asked.includes(ALWAYS_ON)) throw new ConfigError(`Invalid configuration:\n  INDEXES: must name ${ALWAYS_ON}, the games' analysis every route shows`);
  const off = new Set([...(config.POSITION_INDEX ? [] : ['positions']), ...(config.GAME_IDENTITY ? [] : ['identities'])]);
  return registered.filter((definition) => asked.includes(definition.name) && !off.has(definition.name));
}

/**
 * The indexes on, opened over the archive's database: what the games' writer writes through, the
 * replay parts the analysis threads make for them, and their upkeep's life (started once the
 * application is up, told after each committed write, stopped before the connections close).
 */
export class Indexes implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(Indexes.name);
  /** The indexes on, in the registry's order. */
  readonly on: readonly GameIndex[];
  /** The parts of the replay the indexes on take (REPLAY_PARTS' order). */
  readonly takes: readonly ReplayPart[];

  /** `embedded`: whether the database is the embedded one; `extra`: indexes registered besides the registry's (a test's own). */
  constructor(dataSource: DataSource, embedded: boolean, config: AppConfig, extra: readonly IndexDefinition[] = []) {
    const chosen = chosenIndexes(config, [...GAME_INDEXES, ...extra]);
    this.on = chosen.map((definition) => definition.open({ dataSource, embedded }));
    this.takes = REPLAY_PARTS.filter((part) => chosen.some((definition) => definition.takes.includes(part)));
    const fields = this.on.flatMap((index) => (index.fields ?? '').split(',').map((field) => field.trim().split(/\s+/)[0]).filter((name) => name !== ''));
    const twice = fields.find((name, at) => fields.indexOf(name) !== at);
    if (twice !== undefined) throw new ConfigError(`two indexes write the field ${twice}`);
  }

  /** The index named so, when it is on. */
  get(name: string): GameIndex | undefined {
    return this.on.find((index) => index.name === name);
  }

  /** The indexes a request names (`?indexes=positions,patterns`): 400 `reindex.unknown_index` for one that is not on. */
  named(names: readonly string[]): GameIndex[] {
    const missing = names.filter((name) => this.get(name) === undefined);
    if (missing.length > 0) {
      throw new ProblemException(400, 'reindex.unknown_index', `${missing.map((name) => `"${name.slice(0, 40)}"`).join(', ')}: no such index is on here (on: ${this.on.map((index) => index.name).join(', ')})`);
    }
    return this.on.filter((index) => names.includes(index.name));
  }

  /** A write through the indexes committed: their upkeep does what is due. */
  committed(): void {
    for (const index of this.on) index.upkeep?.kick();
  }

  /** Resolves once no index's upkeep has work under way or due (benches and tests). */
  async idle(): Promise<void> {
    for (const index of this.on) await index.upkeep?.idle();
  }

  onApplicationBootstrap(): void {
    this.logger.log(`indexes on: ${this.on.map((index) => index.name).join(', ')}`);
    for (const index of this.on) index.upkeep?.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all(this.on.map((index) => index.upkeep?.stop()));
  }
}
