import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { CliError, EXIT } from './exit-codes.js';
import type { CliIo } from './progress.js';

/**
 * The tokens `tabula login` saved, one per archive: a JSON object from the archive's URL (as
 * `archiveUrl` writes it) to its token. The file holds secrets, so it is written for its owner only.
 */
export type SavedTokens = Record<string, string>;

/**
 * Where the tokens are kept: `TABULA_CONFIG`; else `tabula/config.json` under `XDG_CONFIG_HOME`
 * (ignored when relative, as the XDG spec says); else under `~/.config`. HOME is read from the
 * command's environment first, so a test's environment decides it as it decides the rest.
 */
export function configPath(env: CliIo['env']): string {
  if (env.TABULA_CONFIG) return resolve(env.TABULA_CONFIG);
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.config');
  return join(base, 'tabula', 'config.json');
}

/** The saved tokens; none when the file does not exist. A file that is not such an object is an error, not silently replaced. */
export async function readSavedTokens(path: string): Promise<SavedTokens> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new CliError(`${path}: ${(error as Error).message}`, EXIT.usage);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((token) => typeof token === 'string')) {
    throw new CliError(`${path}: not a tabula config file (a JSON object of archive URL to token); fix it or remove it (TABULA_CONFIG names another)`, EXIT.usage);
  }
  return value as SavedTokens;
}

/** The token saved for the archive at `url` (as `archiveUrl` writes it), if any. */
export async function savedToken(env: CliIo['env'], url: string): Promise<string | undefined> {
  const tokens = await readSavedTokens(configPath(env));
  return Object.hasOwn(tokens, url) ? tokens[url] : undefined;
}

/**
 * Writes the tokens to `path`. The folders made for it are made 0700; the file is written as a new
 * file of mode 0600 beside it and renamed over the old one, so the secrets are never readable by
 * others (an old file's wider mode goes with the old file) and a command stopped halfway leaves the
 * old file whole.
 */
export async function writeSavedTokens(path: string, tokens: SavedTokens): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const handle = await open(temporary, 'w', 0o600);
    try {
      // The mode given to open is narrowed by the umask, and a leftover file of the same name keeps its own.
      await handle.chmod(0o600);
      await handle.writeFile(`${JSON.stringify(tokens, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new CliError(`cannot write ${path}: ${(error as Error).message}`, EXIT.usage);
  }
}
