import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * Who may import whom, as one table. Every TypeScript file of src/ and web/src/ belongs to one layer
 * (the first rule of LAYERS whose pattern matches its path); each relative import it makes must name
 * a file of a layer its own layer may use. Two rules go finer than layers: a plugin is entered from
 * outside its folder only through its index.ts, and no plugin imports another; a family imports no
 * other family (what all families share lies directly in src/formats/families/).
 */
const REPOSITORY = fileURLToPath(new URL('../', import.meta.url));

interface Layer {
  readonly name: string;
  readonly pattern: RegExp;
  /** The layers its files may import (their own always). */
  readonly uses: readonly string[];
  /** Whether it may import packages and Node modules (frameworks, databases, I/O). */
  readonly packages: boolean;
}

const LAYERS: readonly Layer[] = [
  { name: 'rules', pattern: /^src\/rules\//, uses: [], packages: false },
  { name: 'core', pattern: /^src\/core\//, uses: [], packages: false },
  { name: 'format contract', pattern: /^src\/formats\/(plugin|verdict-codes)\.ts$/, uses: ['rules', 'core'], packages: false },
  { name: 'format text', pattern: /^src\/formats\/text\//, uses: ['core'], packages: false },
  // The SGF syntax decodes legacy charsets with Node's TextDecoder.
  { name: 'syntaxes', pattern: /^src\/formats\/syntaxes\//, uses: ['core', 'format text', 'format contract'], packages: true },
  // A family's ply details type, alone in a file that imports nothing: its writer's and every reader's, the viewer's too.
  { name: 'ply details', pattern: /^src\/formats\/families\/[^/]+\/ply-details\.ts$/, uses: [], packages: false },
  { name: 'families', pattern: /^src\/formats\/families\//, uses: ['rules', 'core', 'format contract', 'format text', 'syntaxes', 'ply details'], packages: false },
  { name: 'plugins', pattern: /^src\/formats\/plugins\//, uses: ['rules', 'core', 'format contract', 'format text', 'syntaxes', 'families'], packages: true },
  // The reader makes a stored game's positions with its family's replay of the plugin's plain model.
  { name: 'format registry', pattern: /^src\/formats\/[^/]+\.ts$/, uses: ['core', 'format contract', 'format text', 'plugins', 'families'], packages: true },
  { name: 'common', pattern: /^src\/common\//, uses: ['core'], packages: true },
  { name: 'render', pattern: /^src\/render\//, uses: ['rules', 'core', 'format contract', 'families'], packages: true },
  { name: 'analysis threads', pattern: /^src\/analysis\//, uses: ['core', 'common', 'format contract', 'format registry', 'render'], packages: true },
  { name: 'live Dots server', pattern: /^src\/dots-server\//, uses: ['rules', 'core', 'common', 'format contract', 'families', 'archive'], packages: true },
  { name: 'CLI', pattern: /^src\/cli\//, uses: [], packages: true },
  { name: 'viewer', pattern: /^web\/src\//, uses: ['ply details'], packages: true },
  {
    name: 'archive',
    pattern: /^src\//,
    uses: ['core', 'common', 'format contract', 'format registry', 'format text', 'syntaxes', 'families', 'render', 'analysis threads', 'live Dots server'],
    packages: true,
  },
];

function layerOf(path: string): Layer {
  const layer = LAYERS.find((candidate) => candidate.pattern.test(path));
  if (!layer) throw new Error(`${path} is in no layer`);
  return layer;
}

function typescriptFiles(folder: string): string[] {
  return readdirSync(join(REPOSITORY, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : typescriptFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The module specifiers a file names (imports, re-exports, dynamic imports), as TypeScript's own pre-processor reads them. */
function specifiers(text: string): string[] {
  return ts.preProcessFile(text, true, true).importedFiles.map((file) => file.fileName);
}

/** The repository path a relative specifier of `file` names, as a source file (`x.js` and `x` stand for `x.ts`). */
function target(file: string, specifier: string): string {
  const path = relative(REPOSITORY, resolve(REPOSITORY, dirname(file), specifier)).split('\\').join('/');
  const source = path.replace(/\.js$/, '');
  return /\.tsx?$/.test(source) ? source : `${source}.ts`;
}

const pluginOf = (path: string) => /^src\/formats\/plugins\/([^/]+)\//.exec(path)?.[1];
const familyOf = (path: string) => /^src\/formats\/families\/([^/]+)\//.exec(path)?.[1];

/** What is wrong with `file` importing `specifier`, or null. */
function fault(file: string, specifier: string): string | null {
  const from = layerOf(file);
  if (!specifier.startsWith('.')) {
    return from.packages ? null : `${file} (${from.name}) imports the package or Node module ${specifier}`;
  }
  const to = target(file, specifier);
  if (to.startsWith('..') || (!to.startsWith('src/') && !to.startsWith('web/'))) return null;
  const layer = layerOf(to);
  if (layer !== from && !from.uses.includes(layer.name)) return `${file} (${from.name}) imports ${to} (${layer.name})`;
  const [fromPlugin, toPlugin] = [pluginOf(file), pluginOf(to)];
  if (toPlugin !== undefined && fromPlugin !== toPlugin) {
    if (fromPlugin !== undefined) return `${file} (plugin ${fromPlugin}) imports ${to}: no plugin imports another`;
    if (!to.endsWith(`/plugins/${toPlugin}/index.ts`)) return `${file} imports ${to}: a plugin is entered through its index.ts`;
  }
  const [fromFamily, toFamily] = [familyOf(file), familyOf(to)];
  if (fromFamily !== undefined && toFamily !== undefined && fromFamily !== toFamily) return `${file} (family ${fromFamily}) imports ${to}: no family imports another`;
  return null;
}

describe('the layers of src/ and web/src/', () => {
  const files = [...typescriptFiles('src'), ...typescriptFiles('web/src')];
  const imports = files.flatMap((file) => specifiers(readFileSync(join(REPOSITORY, file), 'utf8')).map((specifier) => ({ file, specifier })));

  it('are found where this test looks: every layer has files and imports', () => {
    for (const layer of LAYERS) expect({ layer: layer.name, files: files.some((file) => layerOf(file) === layer) }).toEqual({ layer: layer.name, files: true });
    expect(imports.length).toBeGreaterThan(1000);
  });

  it('import only what the table allows', () => {
    expect(imports.map(({ file, specifier }) => fault(file, specifier)).filter((text) => text !== null)).toEqual([]);
  });

  it('tell the faults this test is for', () => {
    expect(fault('src/rules/go/board.ts', '../../formats/families/go/index.js')).toMatch(/\(rules\) imports src\/formats\/families\/go\/index.ts \(families\)/);
    expect(fault('src/rules/go/board.ts', 'typeorm')).toMatch(/package or Node module typeorm/);
    expect(fault('src/rules/go/board.ts', 'node:fs')).toMatch(/package or Node module node:fs/);
    expect(fault('src/common/config.ts', '../formats/plugin.js')).toMatch(/\(common\) imports src\/formats\/plugin.ts \(format contract\)/);
    expect(fault('src/formats/plugins/sgf-go/plugin.ts', '../sgf-dots/index.js')).toMatch(/no plugin imports another/);
    expect(fault('src/render/go.ts', '../formats/plugins/sgf-go/analysis.js')).toMatch(/\(render\) imports .* \(plugins\)/);
    expect(fault('src/formats/registry.ts', './plugins/sgf-go/plugin.js')).toMatch(/entered through its index.ts/);
    expect(fault('src/formats/registry.ts', './plugins/sgf-go/index.js')).toBeNull();
    expect(fault('src/formats/families/go/plies.ts', '../dots/plies.js')).toMatch(/no family imports another/);
    expect(fault('src/formats/families/go/result.ts', '../outcome.js')).toBeNull();
    expect(fault('src/cli/program.ts', '../games/games.service.js')).toMatch(/\(CLI\) imports/);
    expect(fault('web/src/game.tsx', '../../src/formats/plugin.js')).toMatch(/\(viewer\) imports/);
    expect(fault('web/src/game.tsx', '../../src/formats/families/go/ply-details.js')).toBeNull();
    expect(fault('web/src/game.tsx', '../../src/formats/families/go/plies.js')).toMatch(/\(viewer\) imports .* \(families\)/);
  });
});
