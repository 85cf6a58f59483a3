// A long-lived worker thread that runs libxml2's xmllint (xmllint-wasm's WebAssembly build) once
// per job. xmllint-wasm's own API starts a new worker and compiles the module for every call,
// which costs ~70 ms; here the module is compiled once and only instantiated per job (~5 ms).
// Every job still gets a fresh instance and memory, so one document cannot affect the next.
// Plain JavaScript because worker threads load files, not TypeScript; the pool that drives it
// is xmllint-pool.ts.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const programPath = require.resolve('xmllint-wasm/xmllint-node.js');
// The program file also installs xmllint-wasm's own message handler; it ignores messages that do
// not carry its tag, which ours never do.
const createXmllint = require(programPath);
const compiled = new WebAssembly.Module(readFileSync(join(dirname(programPath), 'xmllint.wasm')));

parentPort.on('message', (job) => {
  if (!job || job.kind !== 'tabula-xmllint') return;
  let stderr = '';
  let settled = false;
  const finish = (exitCode) => {
    if (settled) return;
    settled = true;
    parentPort.postMessage({ id: job.id, exitCode, stderr });
  };
  createXmllint({
    inputFiles: job.files,
    arguments: job.args,
    print() {},
    printErr(text) {
      stderr += `${text}\n`;
    },
    onExit: finish,
    onAbort(reason) {
      stderr += `WASM Abort: ${reason}\n`;
      finish(-1);
    },
    wasmMemory: new WebAssembly.Memory({ initial: job.initialMemoryPages, maximum: job.maxMemoryPages }),
    instantiateWasm(imports, done) {
      WebAssembly.instantiate(compiled, imports).then(
        (instance) => done(instance, compiled),
        (error) => {
          stderr += `${String(error)}\n`;
          finish(-1);
        },
      );
      return {};
    },
  }).catch((error) => {
    stderr += `${String(error)}\n`;
    finish(-1);
  });
});
