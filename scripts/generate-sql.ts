import 'reflect-metadata';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { QUERIES_FOLDER, renderSqlFiles } from './sql-files.js';

/**
 * Writes src/queries/<repository>.sql from the compiled code (see sql-files.ts): the SQL every
 * repository method sends for the examples of its @GenerateSql. A file is written only when its text
 * changed (an unchanged one keeps its time, so the next build is not made stale by it), and a file no
 * repository makes any more is removed.
 */
const files = await renderSqlFiles();
mkdirSync(QUERIES_FOLDER, { recursive: true });
let changed = 0;
for (const [path, text] of files) {
  let before: string | undefined;
  try {
    before = readFileSync(path, 'utf8');
  } catch {
    before = undefined;
  }
  if (before === text) continue;
  writeFileSync(path, text);
  changed++;
}
for (const name of readdirSync(QUERIES_FOLDER)) {
  const path = `${QUERIES_FOLDER}/${name}`;
  if (name.endsWith('.sql') && !files.has(path)) {
    rmSync(path);
    changed++;
  }
}
console.log(`${QUERIES_FOLDER}: ${files.size} files, ${changed} changed`);
