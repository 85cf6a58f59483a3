#!/usr/bin/env node
// Reads the results jest wrote with --json --outputFile and fails when a test was skipped, but for
// the tests that run on one kind of database only (their titles say "(only on a PostgreSQL server)"
// or "(only on the embedded database)", and CI runs the suite on both) and the one that rewrites the
// README's pictures ("(only with TABULA_README_PICTURES=1)"). Any other skip (real data not found, no
// font, no browser, no Python client generator) means CI did not run everything.
import { readFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
const results = JSON.parse(readFileSync(file, 'utf8'));
const BY_DESIGN = /\(only on (a PostgreSQL server|the embedded database)\)|\(only with TABULA_README_PICTURES=1\)/;
const skipped = results.testResults.flatMap((suite) =>
  suite.assertionResults
    .filter((test) => test.status !== 'passed' && test.status !== 'failed')
    .map((test) => ({ where: suite.name.replace(`${process.cwd()}/`, ''), name: [...test.ancestorTitles, test.title].join(' › ') })),
);
const unexpected = skipped.filter((test) => !BY_DESIGN.test(test.name));
console.log(`tests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped.length} skipped (${skipped.length - unexpected.length} on the other kind of database only)`);
if (unexpected.length > 0) {
  console.error(`${unexpected.length} test(s) skipped that CI must run:`);
  for (const test of unexpected) console.error(`  ${test.where}: ${test.name}`);
  process.exit(1);
}
