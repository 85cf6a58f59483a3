import { FormatError } from '../core/errors.js';
import { FormatReader } from '../formats/format-reader.js';
import { workerData } from 'node:worker_threads';
import { loadPluginModules } from '../formats/plugin-modules.js';
import { FORMAT_PLUGINS } from '../formats/registry.js';
import { svgToPngOnThisThread } from '../render/png.js';
import type { ReadResult } from '../formats/format-reader.js';
import { REPLAY_PARTS } from '../formats/plugin.js';
import type { ReplayPart } from '../formats/plugin.js';
import type { AnalysisReply, AnalysisTask, FormatErrorData, ReadReply } from './analysis-task.js';

/**
 * The body of an analysis thread: every plugin's parse, validation, replay, solve and regeneration
 * runs here, never on the archive's event loop, and so does drawing board pictures as PNG. A FormatError travels back as data (the upload's
 * fault, answered 4xx); any other error is rethrown and becomes a server error.
 */
const data = workerData as { pluginModules?: string[]; replayParts?: ReplayPart[] } | undefined;
const extraPlugins = await loadPluginModules(data?.pluginModules ?? []);
/** The parts of the replay games read to be stored get: those the indexes on take. */
const parts = new Set<ReplayPart>(data?.replayParts ?? REPLAY_PARTS);
/** Whether the positions' keys are made (the position index), */
const positions = parts.has('keys');
/** the identity, which the same replay makes, */
const identity = parts.has('identity');
/** and the board's changes (the pattern index; draughts: its squares, the draughts index). */
const board = parts.has('board');

const reader = new FormatReader([...FORMAT_PLUGINS, ...extraPlugins]);

export default async function analyse(task: AnalysisTask): Promise<AnalysisReply> {
  task.began?.postMessage('began');
  task.began?.close();
  if (task.kind === 'png') return { ok: true, png: svgToPngOnThisThread(task.svg) };
  const file = {
    bytes: Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength),
    filename: task.filename,
    mediaType: task.mediaType,
  };
  const request = { timeBudgetMs: task.timeBudgetMs, limits: task.limits };
  try {
    if (task.kind === 'read') {
      const record = await reader.read(file, { ...request, format: task.format, withReplay: task.withReplay, parts: task.withReplay === false ? parts : undefined });
      return { ok: true, record: task.withReplay === false ? asStored(withoutReplay(record)) : record };
    }
    if (task.kind === 'readMany') {
      const results: ReadReply[] = [];
      let start = 0;
      for (const end of task.ends) {
        const game = { ...file, bytes: file.bytes.subarray(start, end) };
        start = end;
        try {
          results.push({ ok: true, record: storedForm(await reader.read(game, { ...request, format: task.format, withReplay: false, oneGame: true, parts })) });
        } catch (error) {
          if (!(error instanceof FormatError)) throw error;
          results.push({ ok: false, error: asData(error) });
        }
      }
      return { ok: true, results };
    }
    if (task.kind === 'split') return { ok: true, games: reader.split(file, { ...request, format: task.format }) };
    if (task.kind === 'convert') return { ok: true, file: await reader.convert(file, task, task.target, request) };
    return { ok: true, file: await reader.regenerate(file, task.publisher, task.version, request) };
  } catch (error) {
    if (error instanceof FormatError) return { ok: false, error: asData(error) };
    throw error;
  }
}

/** A reading to be stored: its replay, made again on request, does not travel back. */
function withoutReplay(record: ReadResult): ReadResult {
  return record.analysis ? { ...record, analysis: { ...record.analysis, replay: [] } } : record;
}

/**
 * A reading of a collection's game as storing it needs it: no replay, and no Header or Body text
 * where the bytes hold it (its span says where): the archive keeps the range, and the text would
 * only be copied to the other thread to be dropped there.
 */
function storedForm(record: ReadResult): ReadResult {
  const { spans } = record;
  return asStored({ ...withoutReplay(record), header: spans.header ? null : record.header, body: spans.body ? null : record.body });
}

/** A reading with the parts of its replay the indexes on take (one replay makes them all): the others do not travel back. */
function asStored(record: ReadResult): ReadResult {
  const track = record.positions;
  if (!track || (positions && identity && board)) return record;
  const { identity: made, board: changes, squares, ...rest } = track;
  return {
    ...record,
    positions: {
      ...rest,
      entries: positions ? track.entries : new Uint8Array(0),
      ...(identity && made ? { identity: made } : {}),
      ...(board && changes ? { board: changes } : {}),
      ...(board && squares ? { squares } : {}),
    },
  };
}

function asData(error: FormatError): FormatErrorData {
  return { message: error.message, issues: error.issues, status: error.status, code: error.code };
}
