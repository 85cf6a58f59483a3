import type { MessagePort } from 'node:worker_threads';
import type { FileGames, ReadResult } from '../formats/format-reader.js';
import type { FormatErrorCode, FormatIssue } from '../core/errors.js';
import type { ReadLimits } from '../core/limits.js';
import type { RegeneratedFile } from '../formats/plugin.js';

/**
 * The messages between the archive and its analysis threads: plain data only, since they cross a
 * thread boundary by structured clone (Buffers arrive as Uint8Arrays, errors as data).
 */
interface FileTask {
  /** Told when the thread begins the analysis: the time limit runs from then. */
  readonly began?: MessagePort;
  readonly bytes: Uint8Array;
  readonly filename?: string;
  readonly mediaType?: string;
  readonly timeBudgetMs: number;
  readonly limits: ReadLimits;
}

export interface ReadTask extends FileTask {
  readonly kind: 'read';
  /** `publisher/version` named by the uploader. */
  readonly format?: string;
  /**
   * False when the reading is to be stored: the replay (every ply with its details, often the
   * largest part of a reading) is left out of the answer, since the archive makes it on request.
   */
  readonly withReplay?: boolean;
}

export interface RegenerateTask extends FileTask {
  readonly kind: 'regenerate';
  readonly publisher: string;
  readonly version: string;
}

export interface SplitTask extends FileTask {
  readonly kind: 'split';
  readonly format?: string;
}

export interface ConvertTask extends FileTask {
  readonly kind: 'convert';
  readonly publisher: string;
  readonly version: string;
  /** `publisher/version` to write. */
  readonly target: string;
}

/**
 * Several games of one file read in one go (a collection's games, a batch at a time): `bytes` holds
 * them one after the other, game i being `bytes[ends[i-1] ?? 0, ends[i])`. One message each way for
 * the batch instead of one per game. The games are to be stored: the replay is always left out, and
 * so are Header and Body texts the bytes hold (their spans say where).
 */
export interface ReadManyTask extends FileTask {
  readonly kind: 'readMany';
  readonly ends: readonly number[];
  readonly format?: string;
}

/** A board SVG drawn as PNG (resvg's drawing and PNG encoding, 50 ms and more for a large picture). */
export interface PngTask {
  readonly kind: 'png';
  /** Told when the thread begins, as for the other tasks. */
  readonly began?: MessagePort;
  readonly svg: string;
}

export type AnalysisTask = ReadTask | ReadManyTask | RegenerateTask | SplitTask | ConvertTask | PngTask;

/** A {@link FormatError} as data. */
export interface FormatErrorData {
  readonly message: string;
  readonly issues: readonly FormatIssue[];
  readonly status: number;
  readonly code: FormatErrorCode;
}

export type ReadReply = { readonly ok: true; readonly record: ReadResult } | { readonly ok: false; readonly error: FormatErrorData };

/** One answer per game of a {@link ReadManyTask}, in order. */
export type ReadManyReply = { readonly ok: true; readonly results: readonly ReadReply[] };

export type SplitReply = { readonly ok: true; readonly games: FileGames } | { readonly ok: false; readonly error: FormatErrorData };

export type ConvertReply =
  | { readonly ok: true; readonly file: Omit<RegeneratedFile, 'content'> & { content: string | Uint8Array } }
  | { readonly ok: false; readonly error: FormatErrorData };

/** The PNG's bytes. */
export type PngReply = { readonly ok: true; readonly png: Uint8Array };

export type AnalysisReply = ReadReply | ReadManyReply | RegenerateReply | SplitReply | ConvertReply | PngReply;

export type RegenerateReply =
  | { readonly ok: true; readonly file: (Omit<RegeneratedFile, 'content'> & { content: string | Uint8Array }) | undefined }
  | { readonly ok: false; readonly error: FormatErrorData };
