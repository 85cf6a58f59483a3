import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

// src/rules holds the pure rules engines (board, moves, replay, scoring); notation and everything
// else about records lives in src/formats, which depends on the engines and never the other way round.

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const RULES = join(SRC, 'rules');
const FORMATS = join(SRC, 'formats');

function typescriptFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return typescriptFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The module specifiers a file names: static imports and re-exports, side-effect imports, dynamic imports. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  for (const pattern of [/\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g]) {
    for (const match of text.matchAll(pattern)) found.push(match[1]);
  }
  return found;
}

/** Whether a specifier written in `file` names a module under src/formats. */
function reachesFormats(file: string, specifier: string): boolean {
  if (!specifier.startsWith('.')) return /(^|\/)src\/formats(\/|$)/.test(specifier);
  const target = relative(FORMATS, resolve(dirname(file), specifier));
  return target === '' || !(target.startsWith('..') || target.startsWith(sep) || /^[a-zA-Z]:/.test(target));
}

describe('the rules engines', () => {
  const files = typescriptFiles(RULES);

  it('are found where this test looks, imports and all', () => {
    expect(files.length).toBeGreaterThan(10);
    // Every family refuses moves with the shared shape, so the scan must see those imports.
    expect(files.filter((file) => specifiers(readFileSync(file, 'utf8')).includes('../refusal.js')).length).toBeGreaterThan(0);
  });

  it('import nothing from src/formats', () => {
    const offending = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => reachesFormats(file, specifier))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    );
    expect(offending).toEqual([]);
  });

  it('import no package or Node module: no framework, database or I/O', () => {
    const outside = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((specifier) => !specifier.startsWith('.'))
        .map((specifier) => `${relative(SRC, file)} imports ${specifier}`),
    );
    expect(outside).toEqual([]);
  });

  it('tell a relative import of src/formats from one of a neighbour', () => {
    expect(reachesFormats(join(RULES, 'checkers', 'judge-move.ts'), '../../formats/checkers-analysis/notation.js')).toBe(true);
    expect(reachesFormats(join(RULES, 'checkers', 'judge-move.ts'), '../refusal.js')).toBe(false);
    expect(reachesFormats(join(RULES, 'checkers', 'judge-move.ts'), '../../formats-old/x.js')).toBe(false);
  });
});
