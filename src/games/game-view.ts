import type { Family, JsonValue, PlayerEntry, Problem } from '../formats/plugin.js';
import type { GameStatus } from './entities/game.entity.js';

/** A stored game as the repository returns it: the games row joined with its index rows. */
export interface GameView {
  id: number;
  publisher: string | null;
  version: string | null;
  header?: string | null;
  body?: string | null;
  family: Family | null;
  status: GameStatus;
  statusReason: string | null;
  sha256: string;
  size: number;
  mediaType: string;
  filename: string | null;
  uploadedAt: Date;
  players: PlayerEntry[];
  analysis: {
    moveCount: number;
    result: string | null;
    legal: boolean;
    consistent: boolean;
    problems: Problem[];
    details: Record<string, JsonValue>;
  } | null;
}

export interface RawGame {
  raw: Buffer;
  sha256: string;
  mediaType: string;
  filename: string | null;
  publisher: string | null;
  version: string | null;
  status: GameStatus;
}

export interface GameFilters {
  player?: string;
  publisher?: string;
  version?: string;
  family?: Family;
  status?: GameStatus;
  consistent?: boolean;
  uploadedFrom?: Date;
  uploadedTo?: Date;
  /** Return only games with an id below this one (keyset pagination, newest first). */
  beforeId?: number;
}
