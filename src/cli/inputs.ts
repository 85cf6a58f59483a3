import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { CliError, EXIT } from './exit-codes.js';

/** How a file goes to the archive: a file of its own (`POST /uploads`), or an archive of files (`POST /imports`). */
export type InputKind = 'file' | 'zip' | 'tar' | 'tar.gz';

export interface InputFile {
  /** The path as given, or joined below a given folder. */
  readonly path: string;
  /**
   * Its name when sent in an import of many files: below a folder, the folder's name and the path
   * inside it (`games/2024/a.sgf`); a file given by itself, its own name. Never absolute or with `..`.
   */
  readonly name: string;
  readonly size: number;
  readonly kind: InputKind;
}

/** The media types `POST /imports` is sent each kind of archive with. */
export const ARCHIVE_MEDIA_TYPES: Record<Exclude<InputKind, 'file'>, string> = {
  zip: 'application/zip',
  tar: 'application/x-tar',
  'tar.gz': 'application/gzip',
};

/**
 * Every file the arguments name: files as given, folders walked recursively in name order. Names
 * starting with a dot (`.git`, `.DS_Store`) are skipped inside folders; links to files are followed,
 * links to folders are not (no cycles). A path that does not exist is a usage error.
 */
export async function collectInputs(paths: readonly string[]): Promise<InputFile[]> {
  const found: InputFile[] = [];
  for (const path of paths) {
    const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`${path}: ${error.code === 'ENOENT' ? 'no such file or folder' : error.message}`, EXIT.usage);
    });
    if (info.isDirectory()) await walk(path, basename(resolve(path)) || 'files', found);
    else if (info.isFile()) found.push({ path, name: basename(path), size: info.size, kind: kindOf(path) });
    else throw new CliError(`${path}: neither a file nor a folder`, EXIT.usage);
  }
  return found;
}

async function walk(folder: string, name: string, found: InputFile[]): Promise<void> {
  const entries = (await readdir(folder, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      await walk(path, `${name}/${entry.name}`, found);
    } else if (entry.isFile() || entry.isSymbolicLink()) {
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile()) found.push({ path, name: `${name}/${entry.name}`, size: info.size, kind: kindOf(path) });
    }
  }
}

/**
 * Zip and tar files by their names (`.zip`, `.tar`, `.tar.gz`, `.tgz`, any case): the archive reads
 * their bytes itself and refuses what is not what its name says. Anything else is a file of games
 * for `POST /uploads`, which decides whether it can read it.
 */
export function kindOf(path: string): InputKind {
  const name = path.toLowerCase();
  if (name.endsWith('.zip')) return 'zip';
  if (name.endsWith('.tar')) return 'tar';
  if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) return 'tar.gz';
  return 'file';
}
