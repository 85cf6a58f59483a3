// Jest runs in ESM mode (Nest 12 ships only ES modules); swc strips types and keeps
// decorator metadata so DTOs and entities behave as they do in the compiled build.
//
// Tiers (docs/development.md): `npm test` runs the unit tests and the archive's end-to-end tests;
// `npm run test:all` (TABULA_TESTS=all) runs everything, CI's first pass. TABULA_TESTS=database runs
// every suite that talks to a database, CI's second pass on the PostgreSQL server: the others would
// only run the same code again.

/** What `npm test` leaves to `npm run test:all`, and why. */
const SLOW = [
  // Browsers driving the viewer.
  'test/browser/',
  // Clients generated from the spec in other languages (Python).
  'test/client/',
  // Real files written by other programs, every one of them (test/fixtures keeps a few for the fast tier).
  'real-files\\.spec\\.ts$',
  // Fuzzing: thousands of generated inputs.
  'test/fuzz/',
  // Crashes: processes killed mid-write, databases stopped, disks filled, the embedded database kept
  // busy, an import failing at the same entry run after run (its waits between tries).
  'test/e2e/(crash|dots-crash|disk-full|embedded-busy|import-attempts)\\.e2e\\.spec\\.ts$',
  // Clusters: several nodes, replicas, take-overs.
  'test/e2e/(dots-cluster|read-replicas|reindex-nodes|simultaneous-start|import-takeover)\\.e2e\\.spec\\.ts$',
  // Load: many clients at once, the slowest answers timed out.
  'test/e2e/fair-load\\.e2e\\.spec\\.ts$',
  // The CLI's processes against a running archive.
  'test/cli/cli\\.spec\\.ts$',
  // Brute forces over many real games, each 20–50 s: patterns within spans and numbered moves (its
  // unit test, test/patterns/pattern-span.spec.ts, stays in the fast tier), Go and Dots patterns, Go
  // positions, and the Dots position keys at every ply of every real game under every symmetry. The
  // fast tier keeps the other families' position searches, the Go history and tree, and the Go and
  // peg solitaire position keys. And a collection stored in several batches, searched (20 s).
  'test/e2e/patterns-span\\.e2e\\.spec\\.ts$',
  'test/e2e/patterns-(go|dots)\\.e2e\\.spec\\.ts$',
  'test/e2e/positions-(go|batches)\\.e2e\\.spec\\.ts$',
  'test/rules/positions/dots\\.spec\\.ts$',
];

/** The suites that talk to a database (an archive, the embedded database or a server). */
const DATABASE = ['e2e/**/*.spec.ts', 'database/**/*.spec.ts', 'browser/**/*.spec.ts', 'cli/**/*.spec.ts', 'client/**/*.spec.ts', 'fuzz/{forged-cursors,hostile-inputs,upload-route}.fuzz.spec.ts'];

const tier = process.env.TABULA_TESTS ?? 'fast';
if (!['fast', 'all', 'database'].includes(tier)) throw new Error(`TABULA_TESTS must be fast, all or database, not ${tier}`);

export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: tier === 'database' ? DATABASE.map((glob) => `<rootDir>/test/${glob}`) : ['**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(tier === 'fast' ? SLOW : [])],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
          target: 'es2022',
        },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  testTimeout: 60000,
  // Most end-to-end time is spent waiting on servers and databases: use every core, not all but one.
  maxWorkers: '100%',
};
