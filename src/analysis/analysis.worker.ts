import { FormatError } from '../formats/errors.js';
import { FormatReader } from '../formats/format-reader.js';
import { workerData } from 'node:worker_threads';
import { loadPluginModules } from '../formats/plugin-modules.js';
import { FORMAT_PLUGINS } from '../formats/registry.js';
import type { AnalysisReply, AnalysisTask, FormatErrorData } from './analysis-task.js';

/**
 * The body of an analysis thread: every plugin's parse, validation, replay, solve and regeneration
 * runs here, never on the archive's event loop. A FormatError travels back as data (the upload's
 * fault, answered 4xx); any other error is rethrown and becomes a server error.
 */
const extraPlugins = await loadPluginModules((workerData as { pluginModules?: string[] } | undefined)?.pluginModules ?? []);
const reader = new FormatReader([...FORMAT_PLUGINS, ...extraPlugins]);

export default async function analyse(task: AnalysisTask): Promise<AnalysisReply> {
  task.began?.postMessage('began');
  task.began?.close();
  const file = {
    bytes: Buffer.from(task.bytes.buffer, task.bytes.byteOffset, task.bytes.byteLength),
    filename: task.filename,
    mediaType: task.mediaType,
  };
  const request = { timeBudgetMs: task.timeBudgetMs, limits: task.limits };
  try {
    if (task.kind === 'read') {
      const record = await reader.read(file, { ...request, format: task.format });
      if (task.withReplay !== false || !record.analysis) return { ok: true, record };
      return { ok: true, record: { ...record, analysis: { ...record.analysis, replay: [] } } };
    }
    if (task.kind === 'split') return { ok: true, games: reader.split(file, { ...request, format: task.format }) };
    if (task.kind === 'convert') return { ok: true, file: await reader.convert(file, task, task.target, request) };
    return { ok: true, file: await reader.regenerate(file, task.publisher, task.version, request) };
  } catch (error) {
    if (error instanceof FormatError) return { ok: false, error: asData(error) };
    throw error;
  }
}

function asData(error: FormatError): FormatErrorData {
  return { message: error.message, issues: error.issues, status: error.status, code: error.code };
}
