import { FormatError, FormatIssue } from '../../../core/errors.js';
import { locate } from '../../text/decode.js';
import type { NamedSchema } from '../../plugin.js';
import { WASM_PAGE_BYTES, runXmllint } from './xmllint.js';
import { XmlElement, attribute, parseXmlTree } from './xml-tree.js';

const FILE_NAME = 'game.xml';
const SCHEMA_FILE_NAME = 'schema.xsd';
const MIB = 1024 * 1024;
const INITIAL_MEMORY_BYTES = 16 * MIB;
/** What every validation may use, however small the document. */
const MIN_MEMORY_BYTES = 64 * MIB;
/**
 * Validator memory per byte of document. libxml2's tree for the densest markup (empty elements,
 * one-letter attributes) measured 21–29 bytes per input byte, including the heap's growth slack;
 * 48 leaves room for the schema's own tables (keys, keyrefs).
 */
const MEMORY_PER_DOCUMENT_BYTE = 48;
/** The ceiling: 1 GiB covers documents of about 21 MB, twice the default upload limit. */
const MAX_MEMORY_BYTES = 1024 * MIB;
const MAX_ISSUES = 50;
const XMLLINT_OUT_OF_MEMORY = 9;
/** libxml2's word for its own failures (in practice an allocation that failed), never a document's fault. */
const INTERNAL_ERROR = /Internal error[^\n]*/;

/** The memory cap of one validation, in WebAssembly pages: grows with the document, up to the ceiling. */
export function validatorMemoryPages(documentBytes: number): number {
  const wanted = Math.max(MIN_MEMORY_BYTES, INITIAL_MEMORY_BYTES + MEMORY_PER_DOCUMENT_BYTE * documentBytes);
  return Math.ceil(Math.min(MAX_MEMORY_BYTES, wanted) / WASM_PAGE_BYTES);
}

/**
 * Validates with libxml2's XSD validator, in the calling thread. `--huge` lifts libxml2's nesting
 * limit from 256 to 2048 elements (a nested 1.2/2.2 game is one element deeper per move). Exit
 * codes: 0 valid, 3 (schema) or 4 (parser) invalid: a FormatError with libxml2's messages. Anything
 * else — out of memory, an abort, a crash — is the validator's failure, not the document's: a plain
 * Error, which the archive answers with a 5xx.
 */
export async function validateWithSchema(text: string, schema: NamedSchema, maxPages = validatorMemoryPages(Buffer.byteLength(text, 'utf8'))): Promise<void> {
  const documentBytes = Buffer.byteLength(text, 'utf8');
  const run = await runXmllint(
    [
      { fileName: FILE_NAME, contents: text },
      { fileName: SCHEMA_FILE_NAME, contents: schema.text },
    ],
    ['--huge', '--schema', SCHEMA_FILE_NAME, '--noout', FILE_NAME],
    { initialPages: INITIAL_MEMORY_BYTES / WASM_PAGE_BYTES, maxPages },
  );
  if (run.exitCode === 0) return;
  // Out of memory shows as exit code 9, or, when it strikes inside the schema validator, as exit
  // code 3 with an "Internal error" (e.g. "xmlSchemaVDocWalk, calling xmlSchemaValidateElem").
  const outOfMemory = run.exitCode === XMLLINT_OUT_OF_MEMORY || /out of memory|memory allocation failed/i.test(run.stderr);
  const internal = INTERNAL_ERROR.exec(run.stderr);
  if (outOfMemory || internal || (run.exitCode !== 3 && run.exitCode !== 4)) {
    const detail = outOfMemory
      ? `libxml2 ran out of its ${Math.round((maxPages * WASM_PAGE_BYTES) / MIB)} MiB memory cap on a document of ${documentBytes} bytes`
      : internal
        ? `libxml2 reported an internal error (${internal[0].slice(0, 200)}) with a ${Math.round((maxPages * WASM_PAGE_BYTES) / MIB)} MiB memory cap on a document of ${documentBytes} bytes`
        : `xmllint stopped with exit code ${run.exitCode}: ${run.stderr.trim().split('\n')[0].slice(0, 200)}`;
    throw new Error(`the XML validator failed during ${schema.name} validation: ${detail}`);
  }
  const issues = issuesFromOutput(text, run.stderr);
  const first = issues[0]?.message ?? 'not valid';
  throw new FormatError(`the file does not pass ${schema.name}: ${first}`, issues);
}

/**
 * xmllint prints `game.xml:LINE: message`, for parser errors followed by a context line and a
 * caret line. Columns: from the caret for parser errors; for schema errors (line only) from the
 * element the message names on that line.
 */
export function issuesFromOutput(text: string, output: string): FormatIssue[] {
  const lines = output.split('\n');
  const issues: FormatIssue[] = [];
  const locator = new ElementLocator(text);
  const head = new RegExp(`^${FILE_NAME.replace('.', '\\.')}:(\\d+): (.*)$`);
  for (let i = 0; i < lines.length && issues.length < MAX_ISSUES; i++) {
    const match = head.exec(lines[i]);
    if (!match) continue;
    const line = Number(match[1]);
    const message = match[2].replace(/^(element \S+: )?Schemas validity error : /, '').replace(/^parser error : /, 'not well-formed: ');
    let column: number | undefined;
    const context = lines[i + 1];
    const caret = lines[i + 2];
    if (context !== undefined && caret !== undefined && !head.test(context) && /^\s*\^\s*$/.test(caret)) {
      column = caretColumn(text, line, context, caret.indexOf('^'));
      i += 2;
    } else {
      column = locator.column(line, message);
    }
    issues.push(column === undefined ? { message, line } : { message, line, column });
  }
  if (issues.length === 0) issues.push({ message: output.trim().split('\n')[0] || 'not valid' });
  return issues;
}

function lineText(text: string, line: number): { start: number; text: string } | undefined {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) return undefined;
    start = nl + 1;
  }
  const end = text.indexOf('\n', start);
  return { start, text: text.slice(start, end < 0 ? text.length : end).replace(/\r$/, '') };
}

/**
 * libxml2 prints up to 80 bytes of the line before the error position, then a caret under it. When
 * the context starts at the line start, the caret offset is the column (in bytes); otherwise the
 * context is found in the line, and only a unique match gives a column.
 */
function caretColumn(text: string, line: number, context: string, caret: number): number | undefined {
  const source = lineText(text, line);
  if (!source) return undefined;
  const charsIn = (bytes: Buffer) => bytes.toString('utf8').length;
  const contextBytes = Buffer.from(context);
  if (source.text.startsWith(context) && caret < 80) return charsIn(contextBytes.subarray(0, caret)) + 1;
  const first = source.text.indexOf(context);
  if (first < 0 || source.text.indexOf(context, first + 1) >= 0) return undefined;
  return first + charsIn(contextBytes.subarray(0, caret)) + 1;
}

/**
 * Finds the element a schema message is about: elements of the named kind that start on the
 * reported line, narrowed by the attribute value the message quotes; successive messages about
 * the same line and kind take successive elements.
 */
class ElementLocator {
  private elements: XmlElement[] | null | undefined;
  private readonly used = new Map<string, number>();

  constructor(private readonly text: string) {}

  column(line: number, message: string): number | undefined {
    const name = /Element '([^']+)'/.exec(message)?.[1];
    if (!name) return undefined;
    const source = lineText(this.text, line);
    const all = this.all();
    if (!source || !all) return undefined;
    const lineEnd = source.start + source.text.length;
    let candidates = all.filter((e) => e.name === name && e.start >= source.start && e.start <= lineEnd);
    const quoted = /attribute '([^']+)': '([^']*)'/.exec(message);
    if (quoted) {
      const narrowed = candidates.filter((e) => attribute(e, quoted[1]) === quoted[2]);
      if (narrowed.length > 0) candidates = narrowed;
    }
    if (/Element content is not allowed/.test(message)) {
      const withChildren = candidates.filter((e) => e.children.length > 0);
      if (withChildren.length > 0) candidates = withChildren;
    }
    if (candidates.length === 0) return undefined;
    const key = `${line}:${name}:${quoted?.[1] ?? ''}`;
    const index = this.used.get(key) ?? 0;
    this.used.set(key, index + 1);
    const element = candidates[Math.min(index, candidates.length - 1)];
    return locate(this.text, element.start).column;
  }

  private all(): XmlElement[] | null {
    if (this.elements !== undefined) return this.elements;
    try {
      const out: XmlElement[] = [];
      const stack = [parseXmlTree(this.text)];
      while (stack.length > 0) {
        const element = stack.pop()!;
        out.push(element);
        for (let i = element.children.length - 1; i >= 0; i--) stack.push(element.children[i]);
      }
      this.elements = out;
    } catch {
      this.elements = null;
    }
    return this.elements;
  }
}
