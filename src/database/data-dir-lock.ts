import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** A second process asked for a data directory that a live process owns. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockFile: string,
    readonly ownerPid: number,
  ) {
    super(
      `DATA_DIR ${dataDir} is in use by another Tabula process (pid ${ownerPid}, lock file ${lockFile}); ` +
        `stop that process or choose another DATA_DIR`,
    );
  }
}

/**
 * One owner per data directory: `DATA_DIR/tabula.lock`, created exclusively, holds the owner's pid.
 * PGlite opens its files without any locking of its own, so two processes on one directory would
 * corrupt it. A lock whose pid is not alive — or is our own pid, as after a container restart where
 * the new process gets the old one's pid — is stale: it is recovered, and `onRecover` says so.
 */
export class DataDirLock {
  static readonly FILE_NAME = 'tabula.lock';

  private released = false;

  private constructor(
    readonly dataDir: string,
    readonly lockFile: string,
  ) {}

  static acquire(dataDir: string, onRecover: (message: string) => void = () => {}): DataDirLock {
    const directory = resolve(dataDir);
    mkdirSync(directory, { recursive: true });
    const lockFile = join(directory, DataDirLock.FILE_NAME);
    // A few rounds at most: each one either creates the lock, meets a live owner, or clears a stale lock.
    for (let attempt = 0; attempt < 5; attempt++) {
      if (createExclusively(lockFile)) return new DataDirLock(directory, lockFile);
      const owner = readOwner(lockFile);
      if (owner === undefined) continue; // removed between our attempt and the read: try again
      if (isOtherLiveProcess(owner)) throw new DataDirLockedError(directory, lockFile, owner);
      if (removeIfStale(lockFile)) {
        onRecover(`recovered a stale lock ${lockFile} (pid ${Number.isNaN(owner) ? 'unreadable' : owner} is not running)`);
      }
    }
    const owner = readOwner(lockFile);
    throw new DataDirLockedError(directory, lockFile, owner ?? Number.NaN);
  }

  /** Removes the lock if it is still ours; idempotent. */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (readOwner(this.lockFile) === process.pid) rmSync(this.lockFile, { force: true });
  }
}

/** Writes our pid to `lockFile` if no such file exists, atomically; false when it exists. */
function createExclusively(lockFile: string): boolean {
  // The pid is written to a private file first and then hard-linked into place: link() fails when the
  // name exists, so the lock never exists without its pid (an empty lock would read as stale).
  const candidate = `${lockFile}.${process.pid}.tmp`;
  const fd = openSync(candidate, 'w', 0o644);
  try {
    writeSync(fd, `${process.pid}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(candidate, lockFile);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(candidate, { force: true });
  }
}

/** The pid in the lock (NaN when unreadable), or undefined when there is no lock. */
function readOwner(lockFile: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return /^\d+\s*$/.test(text) ? Number(text.trim()) : Number.NaN;
}

function isOtherLiveProcess(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else, which still makes it the owner.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock without ever removing a live one: the lock is first renamed to a name of our
 * own (atomic), then read. If another process recovered the same stale lock and created its own in
 * the meantime, what we took is that live lock, and it is linked back (link fails if the name was
 * taken again, in which case that newer lock stands).
 */
function removeIfStale(lockFile: string): boolean {
  const taken = `${lockFile}.${process.pid}.stale`;
  try {
    renameSync(lockFile, taken);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  const owner = readOwner(taken);
  if (owner !== undefined && isOtherLiveProcess(owner)) {
    try {
      linkSync(taken, lockFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    rmSync(taken, { force: true });
    return false;
  }
  rmSync(taken, { force: true });
  return true;
}
