import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/*
 * libxml2's xmllint (xmllint-wasm's WebAssembly build), run in the calling thread. The archive runs
 * plugins on analysis worker threads, so a validator thread pool of its own would only multiply
 * threads. The module is compiled once per thread, on first use; every run gets a fresh instance
 * with a fresh memory, so one document can never affect the next.
 */

export interface XmllintFile {
  readonly fileName: string;
  readonly contents: string;
}

export interface XmllintRun {
  readonly exitCode: number;
  readonly stderr: string;
}

/** 64 KiB, the WebAssembly page. */
export const WASM_PAGE_BYTES = 65_536;

type ModuleFactory = (options: Record<string, unknown>) => Promise<unknown>;

/**
 * The parts of the WebAssembly API used here. TypeScript declares them only with the DOM library,
 * which the build leaves out (the server has no DOM).
 */
type WasmModule = { readonly __brand: 'WebAssembly.Module' };
type WasmMemory = { readonly buffer: ArrayBuffer };
type WasmInstance = { readonly exports: Record<string, unknown> };
type WasmImports = Record<string, Record<string, unknown>>;
const Wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => WasmModule;
      Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory;
      instantiate(module: WasmModule, imports: WasmImports): Promise<WasmInstance>;
    };
  }
).WebAssembly;

interface Program {
  readonly factory: ModuleFactory;
  readonly compiled: WasmModule;
}

let program: Program | undefined;

/**
 * xmllint-wasm's program file is an Emscripten script written for its own worker: loaded as it is,
 * it listens on `worker_threads.parentPort` (absent on the main thread) and writes every exit code
 * into `process.exitCode` (which would become the exit code of the whole archive). It is evaluated
 * here with a `parentPort` that listens to nothing and a `process` of its own; `fs`, `path` and
 * `crypto` are the real modules.
 */
function loadProgram(): Program {
  if (program) return program;
  const require = createRequire(import.meta.url);
  const programPath = require.resolve('xmllint-wasm/xmllint-node.js');
  const source = readFileSync(programPath, 'utf8');
  const ownRequire = (id: string): unknown => (id === 'worker_threads' ? { parentPort: { on() {}, postMessage() {} } } : require(id));
  const ownProcess = { versions: process.versions, argv: ['node', 'xmllint'], type: undefined, exitCode: undefined, stdin: { fd: -1 } };
  const module: { exports: unknown } = { exports: {} };
  const evaluate = new Function('module', 'exports', 'require', '__filename', '__dirname', 'process', `${source}\n//# sourceURL=${programPath}`);
  evaluate(module, module.exports, ownRequire, programPath, dirname(programPath), ownProcess);
  const factory = module.exports as ModuleFactory;
  if (typeof factory !== 'function') throw new Error(`xmllint-wasm: ${programPath} exports no module factory`);
  const compiled = new Wasm.Module(readFileSync(join(dirname(programPath), 'xmllint.wasm')));
  program = { factory, compiled };
  return program;
}

/**
 * Runs xmllint once over in-memory files. Resolves with its exit code and standard error when the
 * program ends (whatever the code); rejects with a plain Error when it cannot run or aborts, which
 * is the archive's failure, never the document's.
 */
export function runXmllint(files: readonly XmllintFile[], args: readonly string[], memory: { initialPages: number; maxPages: number }): Promise<XmllintRun> {
  const { factory, compiled } = loadProgram();
  return new Promise((resolve, reject) => {
    let stderr = '';
    let settled = false;
    const exit = (exitCode: number): void => {
      if (settled) return;
      settled = true;
      resolve({ exitCode, stderr });
    };
    const fail = (reason: unknown): void => {
      if (settled) return;
      settled = true;
      reject(new Error(`xmllint could not run: ${String(reason)}${stderr ? ` (${stderr.trim().split('\n')[0].slice(0, 200)})` : ''}`));
    };
    let wasmMemory: WasmMemory;
    try {
      wasmMemory = new Wasm.Memory({ initial: memory.initialPages, maximum: memory.maxPages });
    } catch (error) {
      fail(error);
      return;
    }
    factory({
      inputFiles: files.map((f) => ({ fileName: f.fileName, contents: f.contents })),
      arguments: [...args],
      print() {},
      printErr(text: string) {
        stderr += `${text}\n`;
      },
      onExit: exit,
      onAbort: (reason: unknown) => fail(`aborted: ${String(reason)}`),
      wasmMemory,
      instantiateWasm(imports: WasmImports, done: (instance: WasmInstance, module: WasmModule) => void) {
        Wasm.instantiate(compiled, imports).then((instance) => done(instance, compiled), fail);
        return {};
      },
    }).catch(fail);
  });
}
