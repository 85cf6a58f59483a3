#!/usr/bin/env node
// Builds the project (`npm run build`: server, CLI, viewer) unless the last build is newer than every
// source it is made of. npm runs it after `npm install` and before `npm start` and `npm test`, so a
// fresh clone is built once and a start with nothing changed goes straight to the server.
//
// "Newer" is by modification time: the build leaves dist/.build-stamp timed at the moment the build
// began, and any file of the inputs below modified after that moment (an edit, a checkout, a pull)
// makes the next run build again. `--force` builds whatever the times say.
// Plain JavaScript on purpose: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stamp = join(root, 'dist', '.build-stamp');

/** What the build reads: folders walked whole (but for the clients the build generates itself), and single files. */
const INPUT_FOLDERS = ['src', 'migrations', 'scripts', 'bench', 'test/support', 'web'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'openapi/openapi.json', 'nest-cli.json', 'tsconfig.json', 'tsconfig.build.json', 'tsconfig.cli.json'];
// src/queries holds the SQL the repositories send, written by npm run sql from the build: an output, not an input.
const SKIPPED_FOLDERS = new Set(['generated', 'node_modules', 'dist', 'queries']);

/** The newest modification time (ms) of a file under `path`, with the file that has it. */
function newestUnder(path, newest) {
  let info;
  try {
    info = statSync(path);
  } catch {
    return newest;
  }
  if (!info.isDirectory()) return info.mtimeMs > newest.time ? { time: info.mtimeMs, path } : newest;
  let found = newest;
  for (const entry of readdirSync(path, { withFileTypes: true })) {
    if (entry.isDirectory() && SKIPPED_FOLDERS.has(entry.name)) continue;
    found = newestUnder(join(path, entry.name), found);
  }
  return found;
}

function reasonToBuild() {
  if (process.argv.includes('--force')) return 'asked to (--force)';
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'src', 'main.js'))) return 'there is no build yet';
  const built = statSync(stamp).mtimeMs;
  let newest = { time: 0, path: '' };
  for (const input of [...INPUT_FOLDERS, ...INPUT_FILES]) newest = newestUnder(join(root, input), newest);
  return newest.time > built ? `${newest.path.slice(root.length + 1)} changed since the last build` : undefined;
}

const reason = reasonToBuild();
if (reason === undefined) {
  process.exit(0);
}
process.stderr.write(`build: ${reason}; building (npm run build)\n`);
const began = new Date();
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];
const result = spawnSync(npm[0], [...npm.slice(1), 'run', 'build'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
closeSync(openSync(stamp, 'w'));
utimesSync(stamp, began, began);
