import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/*
 * Who may import whom, as one table. Every TypeScript file of src/ and web/src/ belongs to one layer
 * (the first rule of LAYERS whose pattern matches its path); each relative import it makes must name
 * a file of a layer its own layer may use. Rules go finer than layers: a plugin is entered from
 * outside its folder only through its index.ts, and no plugin imports another; a family imports no
 * other family (what all families share lies directly in src/formats/families/); no index imports
 * another, and only a few hold the indexes themselves; the modules beside the games use nothing of
 * src/games but the games' service API, and only those that store games.
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
  // Nest's wiring: a module file names the providers of its folder and the modules they need.
  { name: 'wiring', pattern: /^src\/([^/]+\/)?[^/]+\.module\.ts$/, uses: ['archive', 'index registry', 'indexes', 'index contract', 'core', 'common', 'format contract', 'format registry', 'analysis threads', 'live Dots server', 'database statements'], packages: true },
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
  // The statements' plumbing indexes write through (a Query, @GenerateSql, named statements).
  { name: 'database statements', pattern: /^src\/database\/sql\.ts$/, uses: [], packages: true },
  // What every index implements, and what the writer knows of them.
  { name: 'index contract', pattern: /^src\/indexes\/game-index\.ts$/, uses: ['format contract', 'format registry', 'database statements'], packages: true },
  // One folder an index: its rows, statements and upkeep. It imports no other index and nothing of games.
  { name: 'indexes', pattern: /^src\/indexes\/[^/]+\//, uses: ['core', 'common', 'format contract', 'format registry', 'families', 'database statements', 'index contract'], packages: true },
  // The registry and the indexes on: the only code besides the writer that holds the indexes themselves.
  { name: 'index registry', pattern: /^src\/indexes\/[^/]+\.ts$/, uses: ['core', 'common', 'format contract', 'format registry', 'database statements', 'index contract', 'indexes'], packages: true },
  // Pieces of HTTP that know no format and no table: the game id's rule and pipes, JSON bodies, uploads' bodies, answers sent as made.
  { name: 'http', pattern: /^src\/http\//, uses: ['common'], packages: true },
  // What every search of games shares (the views, rows and summary columns, the filters' SQL, cursors, the DTOs):
  // games, positions, patterns, identity and players read through it. Of the indexes, the helpers of their rows
  // only (the identities' PREFIX_PLIES, which says what a copy is).
  { name: 'read model', pattern: /^src\/catalog\//, uses: ['common', 'format contract', 'http', 'indexes'], packages: true },
  { name: 'live Dots server', pattern: /^src\/dots-server\//, uses: ['rules', 'core', 'common', 'format contract', 'families', 'archive', 'database statements'], packages: true },
  { name: 'CLI', pattern: /^src\/cli\//, uses: [], packages: true },
  { name: 'viewer', pattern: /^web\/src\//, uses: ['ply details'], packages: true },
  {
    name: 'archive',
    pattern: /^src\//,
    uses: ['core', 'common', 'format contract', 'format registry', 'format text', 'syntaxes', 'families', 'render', 'analysis threads', 'live Dots server', 'database statements', 'index contract', 'indexes', 'index registry', 'wiring', 'http', 'read model'],
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

/**
 * Who may hold the indexes themselves (an index's `*.index.ts`, the registry, the indexes on): the
 * registry's files, the games' writer, the application's wiring (modules, the factory that checks
 * INDEXES). Everything else reads an index's tables through its own repositories, and may use an
 * index's helpers (how its keys are written, say).
 */
const HOLDS_INDEXES = /^src\/(indexes\/[^/]+\.ts|games\/games-write\.repository\.ts|app\.factory\.ts|([^/]+\/)?[^/]+\.module\.ts)$/;
const isIndexItself = (path: string) => /^src\/indexes\/([^/]+\/[^/]+\.index|registry|indexes)\.ts$/.test(path);
const indexOf = (path: string) => /^src\/indexes\/([^/]+)\//.exec(path)?.[1];

/**
 * The modules beside the games read games through the read model (src/catalog) and take the shared
 * HTTP pieces from src/http: nothing of src/games is theirs. Only the modules that store games use
 * the games' own service API: the uploads write a kept file's games through the games' writer
 * (GamesWriteRepository, with POST /games's query, UploadGameQuery, and GamesModule to have them),
 * and the live Dots server uploads a finished game through GamesService, as any upload is stored.
 */
const BESIDE_GAMES = /^src\/(positions|patterns|identity|players|tags|uploads|imports|accounts|dots-server)\//;
const STORES_GAMES = /^src\/(uploads|dots-server)\//;
const GAMES_SERVICE_API = /^src\/games\/(games\.module|games\.service|games-write\.repository|dto\/upload-game\.query)\.ts$/;

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
  const [fromIndex, toIndex] = [indexOf(file), indexOf(to)];
  if (fromIndex !== undefined && toIndex !== undefined && fromIndex !== toIndex) return `${file} (index ${fromIndex}) imports ${to}: no index imports another`;
  if (isIndexItself(to) && !HOLDS_INDEXES.test(file) && indexOf(file) === undefined) return `${file} imports ${to}: only the registry and the games' writer hold the indexes`;
  if (BESIDE_GAMES.test(file) && to.startsWith('src/games/') && !(STORES_GAMES.test(file) && GAMES_SERVICE_API.test(to))) {
    return `${file} imports ${to}: nothing of src/games but the games' service API, for the modules that store games (read games through src/catalog)`;
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
    expect(fault('src/indexes/patterns/pattern-rows.ts', '../positions/position-rows.js')).toMatch(/no index imports another/);
    expect(fault('src/indexes/patterns/pattern-rows.ts', '../../games/games.service.js')).toMatch(/\(indexes\) imports src\/games\/games.service.ts \(archive\)/);
    expect(fault('src/indexes/patterns/pattern-rows.ts', '../../catalog/game-view.js')).toMatch(/\(indexes\) imports src\/catalog\/game-view.ts \(read model\)/);
    expect(fault('src/positions/positions.service.ts', '../indexes/positions/positions.index.js')).toMatch(/only the registry and the games' writer hold the indexes/);
    expect(fault('src/uploads/uploads.service.ts', '../indexes/indexes.js')).toMatch(/only the registry and the games' writer hold the indexes/);
    expect(fault('src/positions/positions.service.ts', '../indexes/positions/position-rows.js')).toBeNull();
    expect(fault('src/games/games-write.repository.ts', '../indexes/indexes.js')).toBeNull();
    expect(fault('src/indexes/registry.ts', './positions/positions.index.js')).toBeNull();
    expect(fault('src/catalog/cursor.ts', '../games/games.service.js')).toMatch(/\(read model\) imports src\/games\/games.service.ts \(archive\)/);
    expect(fault('src/catalog/game-rows.ts', '../positions/positions.repository.js')).toMatch(/\(read model\) imports src\/positions\/positions.repository.ts \(archive\)/);
    expect(fault('src/catalog/identity.sql.ts', '../indexes/identities/identities.index.js')).toMatch(/only the registry and the games' writer hold the indexes/);
    expect(fault('src/catalog/identity.sql.ts', '../indexes/identities/identity-rows.js')).toBeNull();
    expect(fault('src/catalog/cursor.ts', '../http/json-body.js')).toBeNull();
    expect(fault('src/http/json-body.ts', '../catalog/game-view.js')).toMatch(/\(http\) imports src\/catalog\/game-view.ts \(read model\)/);
    expect(fault('src/http/upload-body.ts', '../formats/plugin.js')).toMatch(/\(http\) imports src\/formats\/plugin.ts \(format contract\)/);
    expect(fault('src/http/upload-body.ts', '../common/problem-codes.js')).toBeNull();
    expect(fault('src/positions/positions.service.ts', '../games/games.service.js')).toMatch(/nothing of src\/games but the games' service API/);
    expect(fault('src/identity/identity.controller.ts', '../games/games.controller.js')).toMatch(/nothing of src\/games but the games' service API/);
    expect(fault('src/uploads/uploads.service.ts', '../games/games-search.repository.js')).toMatch(/nothing of src\/games but the games' service API/);
    expect(fault('src/positions/positions.service.ts', '../catalog/cursor.js')).toBeNull();
    expect(fault('src/uploads/uploads.service.ts', '../games/games-write.repository.js')).toBeNull();
    expect(fault('src/dots-server/server-store.ts', '../games/games.service.js')).toBeNull();
  });
});
