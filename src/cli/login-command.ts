import { answerOf, connect, describeProblem, unreachable } from './connection.js';
import { CliError, EXIT } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import { listTokens } from './generated/sdk.gen.js';
import type { CliIo } from './progress.js';
import { configPath, readSavedTokens, writeSavedTokens } from './saved-tokens.js';

/** The longest line read as a token: far past any token, short of reading a whole file piped in by mistake. */
const MAX_TOKEN_LENGTH = 4096;

/**
 * `tabula login`: checks the token with the archive at `url` and saves it there in the config file,
 * for the commands that follow with neither TABULA_TOKEN nor TABULA_API_KEY set. The token is never
 * written out; a token the archive refuses is not saved.
 */
export async function runLogin(url: string, io: CliIo, given: string | undefined): Promise<ExitCode> {
  const token = (given ?? (await readToken(io))).trim();
  if (token === '') throw new CliError('no token given: pass --token, or type or pipe it on standard input', EXIT.usage);
  const connection = connect(url, token);

  // GET /tokens tells the three apart: 200 for an admin's token, 403 auth.scope for any other valid
  // token, 401 for a token the archive does not know, that was revoked or that expired. (A read such
  // as GET /games answers 401 too, but the spec does not declare it there.)
  const result = await listTokens({ client: connection.client });
  if (!result.response) throw unreachable(connection, result.error);
  const { status } = result.response;
  if (status === 401) {
    throw new CliError(`the archive at ${connection.baseUrl} refused the token (${describeProblem(status, result.error)}); nothing was saved`, EXIT.server);
  }
  if (!(status === 403 && (result.error as { code?: unknown } | undefined)?.code === 'auth.scope')) answerOf(connection, result, 'GET /tokens');

  const path = configPath(io.env);
  const tokens = await readSavedTokens(path);
  tokens[connection.baseUrl] = token;
  await writeSavedTokens(path, tokens);
  const id = /^tabula_(\d+)_/.exec(token)?.[1];
  io.stderr.write(`${id === undefined ? 'the key' : `token ${id}`} is saved for ${connection.baseUrl} in ${path}\n`);
  warnOfEnvironment(io);
  return EXIT.ok;
}

/** `tabula logout`: forgets the token saved for `url`. The token itself still works until an admin revokes it. */
export async function runLogout(url: string, io: CliIo): Promise<ExitCode> {
  const { baseUrl } = connect(url, undefined);
  const path = configPath(io.env);
  const tokens = await readSavedTokens(path);
  if (!Object.hasOwn(tokens, baseUrl)) {
    io.stderr.write(`no token is saved for ${baseUrl} in ${path}\n`);
  } else {
    delete tokens[baseUrl];
    await writeSavedTokens(path, tokens);
    io.stderr.write(`the token saved for ${baseUrl} is removed from ${path} (it still works until it is revoked: tabula token revoke)\n`);
  }
  warnOfEnvironment(io);
  return EXIT.ok;
}

/** The environment's token goes before the saved one: say so, or the saved one seems to be ignored. */
function warnOfEnvironment(io: CliIo): void {
  const name = io.env.TABULA_TOKEN?.trim() ? 'TABULA_TOKEN' : io.env.TABULA_API_KEY?.trim() ? 'TABULA_API_KEY' : undefined;
  if (name) io.stderr.write(`note: ${name} is set, and commands send it rather than the saved token\n`);
}

/**
 * One line of standard input. On a terminal it is read with the terminal's echo off (a prompt on
 * stderr, nothing shown while typing); from a pipe, the first line.
 */
async function readToken(io: CliIo): Promise<string> {
  const input = io.stdin;
  if (!input) throw new CliError('no token given: pass --token', EXIT.usage);
  if (input.isTTY && input.setRawMode) return readHidden(input as Terminal, io);
  return readLine(input);
}

function readLine(input: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (error?: CliError) => {
      input.off('data', onData);
      input.off('end', onEnd);
      input.off('error', onError);
      // Paused, the stream no longer holds the process open.
      input.pause();
      if (error) return reject(error);
      const text = Buffer.concat(chunks).toString('utf8');
      const end = text.indexOf('\n');
      resolve(end < 0 ? text : text.slice(0, end));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      length += bytes.length;
      if (bytes.includes(0x0a)) finish();
      else if (length > MAX_TOKEN_LENGTH) finish(new CliError(`standard input: no token on its first ${MAX_TOKEN_LENGTH} bytes`, EXIT.usage));
    };
    const onEnd = () => finish();
    const onError = (error: Error) => finish(new CliError(`standard input: ${error.message}`, EXIT.usage));
    input.on('data', onData);
    input.on('end', onEnd);
    input.on('error', onError);
    input.resume();
  });
}

type Terminal = NodeJS.ReadableStream & { setRawMode(mode: boolean): unknown };

function readHidden(input: Terminal, io: CliIo): Promise<string> {
  io.stderr.write('token: ');
  return new Promise((resolve, reject) => {
    let token = '';
    const finish = (error?: CliError) => {
      input.off('data', onData);
      input.setRawMode(false);
      input.pause();
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(token);
    };
    const onData = (chunk: Buffer | string) => {
      // A terminal in bracketed-paste mode wraps what is pasted in ESC [200~ … ESC [201~.
      const text = chunk.toString().replace(/\u001b\[[0-9;]*[~A-Za-z]/g, '');
      for (const char of text) {
        if (char === '\r' || char === '\n' || (char === '\u0004' && token === '')) return finish();
        if (char === '\u0003') return finish(new CliError('login cancelled', EXIT.usage));
        if (char === '\u007f' || char === '\b') token = token.slice(0, -1);
        else if (char >= ' ') token += char;
        if (token.length > MAX_TOKEN_LENGTH) return finish(new CliError(`no token in the first ${MAX_TOKEN_LENGTH} characters typed`, EXIT.usage));
      }
    };
    input.setRawMode(true);
    input.on('data', onData);
    input.resume();
  });
}
