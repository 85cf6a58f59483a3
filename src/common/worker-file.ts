import { existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The compiled file of a worker thread's entry `name` (e.g. `analysis.worker.js`) that lives beside
 * the module at `moduleUrl`: beside it when that module is itself compiled (dist), otherwise at the
 * same place under dist/ (tests run the TypeScript sources, and a thread loads plain
 * JavaScript: `npm test` builds first).
 */
export function workerFile(moduleUrl: string, name: string): string {
  const here = dirname(fileURLToPath(moduleUrl));
  const beside = join(here, name);
  if (existsSync(beside)) return beside;
  let root = here;
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  const built = join(root, 'dist', relative(root, here), name);
  if (!existsSync(built)) throw new Error(`the worker ${built} is missing: run npm run build first`);
  return built;
}
