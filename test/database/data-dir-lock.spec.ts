import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock, DataDirLockedError } from '../../src/database/data-dir-lock.js';

/** A process that stays alive until killed, and its pid. */
async function liveProcess(): Promise<{ pid: number; stop(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  return {
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** The pid of a process that has run and exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('DataDirLock', () => {
  let dataDir: string;
  let lockFile: string;

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'tabula-lock-'));
    lockFile = join(dataDir, 'tabula.lock');
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('creates DATA_DIR/tabula.lock holding our pid, and removes it on release', () => {
    const lock = DataDirLock.acquire(join(dataDir, 'not-yet-there'));
    const file = join(dataDir, 'not-yet-there', 'tabula.lock');
    expect(readFileSync(file, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(file)).toBe(false);
    // Nothing else is left behind (the candidate file the pid is first written to).
    expect(readdirSync(join(dataDir, 'not-yet-there'))).toEqual([]);
  });

  it('refuses a directory whose lock belongs to a live process, naming the directory, the lock file and the pid', async () => {
    const owner = await liveProcess();
    try {
      writeFileSync(lockFile, `${owner.pid}\n`);
      let error: unknown;
      try {
        DataDirLock.acquire(dataDir);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DataDirLockedError);
      const message = (error as Error).message;
      expect(message).toContain(dataDir);
      expect(message).toContain(lockFile);
      expect(message).toContain(`pid ${owner.pid}`);
      // The owner's lock is untouched.
      expect(readFileSync(lockFile, 'utf8')).toBe(`${owner.pid}\n`);
      expect(readdirSync(dataDir)).toEqual(['tabula.lock']);
    } finally {
      await owner.stop();
    }
  });

  it('recovers a lock left by a process that is no longer running, and says so', async () => {
    const pid = await deadPid();
    writeFileSync(lockFile, `${pid}\n`);
    const messages: string[] = [];
    const lock = DataDirLock.acquire(dataDir, (message) => messages.push(message));
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain(lockFile);
    expect(messages[0]).toContain(String(pid));
    lock.release();
  });

  it('recovers a lock holding our own pid, as after a container restart', () => {
    writeFileSync(lockFile, `${process.pid}\n`);
    const messages: string[] = [];
    const lock = DataDirLock.acquire(dataDir, (message) => messages.push(message));
    expect(messages).toHaveLength(1);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('recovers a lock without a readable pid', () => {
    writeFileSync(lockFile, '');
    const messages: string[] = [];
    const lock = DataDirLock.acquire(dataDir, (message) => messages.push(message));
    expect(messages).toHaveLength(1);
    expect(readFileSync(lockFile, 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('on release, leaves a lock that is no longer ours', async () => {
    const lock = DataDirLock.acquire(dataDir);
    const other = await liveProcess();
    try {
      writeFileSync(lockFile, `${other.pid}\n`);
      lock.release();
      expect(readFileSync(lockFile, 'utf8')).toBe(`${other.pid}\n`);
    } finally {
      await other.stop();
    }
  });
});
