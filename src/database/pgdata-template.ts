import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * An empty PGlite data directory made once, by the build, which a new embedded database copies
 * rather than run initdb again: initdb takes 3.5 s of a 2-core machine's first start, a copy of its
 * 39 MB a fraction of that. It is kept in dist/pgdata-template/<PGlite's version>, so a PGlite of
 * another version never starts on a directory another version made; without it (a build that has
 * not made it, tests running the TypeScript sources) a new database is made by initdb as before.
 */
const run = promisify(execFile);
const requireHere = createRequire(import.meta.url);

function pgliteVersion(): string {
  const entry = requireHere.resolve('@electric-sql/pglite');
  let folder = dirname(entry);
  while (!existsSync(join(folder, 'package.json'))) folder = dirname(folder);
  return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Where the template of this build and this PGlite lives (whether or not it is there). */
export function templateLocation(): string {
  let root = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(root, 'package.json')) && dirname(root) !== root) root = dirname(root);
  return join(root, 'dist', 'pgdata-template', pgliteVersion());
}

/** The template, when the build made it. */
export function builtTemplate(): string | undefined {
  const location = templateLocation();
  return existsSync(join(location, 'PG_VERSION')) ? location : undefined;
}

/**
 * Runs PGlite's initdb into `location` (an empty folder) in a short-lived child process: in
 * this process its WebAssembly memory would stay resident for the process's life.
 */
export async function initdb(location: string): Promise<void> {
  const script = `const { PGlite } = require(${JSON.stringify(requireHere.resolve('@electric-sql/pglite'))});
PGlite.create(process.argv[1]).then((db) => db.close()).catch((error) => { console.error(error); process.exit(1); });`;
  await run(process.execPath, ['-e', script, location], { maxBuffer: 16 * 1024 * 1024 });
}

/** Makes the template (the build's last step: scripts/pgdata-template.ts). */
export async function makeTemplate(): Promise<string> {
  const location = templateLocation();
  const building = `${location}.building`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  await initdb(building);
  rmSync(location, { recursive: true, force: true });
  renameSync(building, location);
  return location;
}
