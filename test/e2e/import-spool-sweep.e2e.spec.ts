import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStore, serverUrl, startServer, stop } from '../support/server-process.js';
import type { RunningServer } from '../support/server-process.js';

/**
 * The spool folders a node leaves on its disk (issue 32): with several nodes the one that received
 * an import is not always the one that finishes it, and a node may die while a body streams in. At
 * start (and every hour) a node removes the folders of imports that have ended, and folders of no
 * import once nothing in them changed for an hour; it keeps those of running imports, fresh ones,
 * and the copies a node made of bodies it took over (`copies/`).
 */
describe('spool folders swept at start', () => {
  let store: Awaited<ReturnType<typeof createStore>>;
  let temporary: string;
  let node: RunningServer | undefined;

  beforeAll(async () => {
    store = await createStore();
    temporary = await mkdtemp(join(tmpdir(), 'tabula-sweep-'));
  });
  afterAll(async () => {
    await stop(node);
    await store.remove();
    await rm(temporary, { recursive: true, force: true });
  });

  // With a server the spool is under the system's temporary folder (TMPDIR here), else under DATA_DIR/imports.
  const settings = () => ({ ...store.settings, TMPDIR: temporary, DOTS_PORT: '0', ANALYSIS_THREADS: '1' });
  const root = () => (serverUrl ? join(temporary, 'tabula-imports') : join(store.settings.DATA_DIR, 'imports'));
  const list = async () => readdir(root()).catch(() => [] as string[]);

  it('removes the folders of ended imports and old folders of none, and keeps fresh ones and copies', async () => {
    node = await startServer(settings());
    const before = await list();
    const answer = await fetch(`${node.baseUrl}/imports?filename=one.sgf`, { method: 'POST', body: '(;GM[1]FF[4]SZ[9]PB[Swept]PW[Folder];B[ee])' });
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: number };
    const spooled = (await list()).filter((name) => !before.includes(name));
    expect(spooled).toHaveLength(1);
    for (;;) {
      const state = ((await (await fetch(`${node.baseUrl}/imports/${id}`)).json()) as { state: string }).state;
      if (state !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stop(node);
    // As if another node had finished it: the receiving node's folder is still there.
    const ended = join(root(), spooled[0]);
    await mkdir(ended, { recursive: true });
    await writeFile(join(ended, 'body'), 'left');
    const oldOrphan = join(root(), 'old-orphan');
    await mkdir(oldOrphan);
    await writeFile(join(oldOrphan, 'body'), 'two hours old');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(join(oldOrphan, 'body'), twoHoursAgo, twoHoursAgo);
    await utimes(oldOrphan, twoHoursAgo, twoHoursAgo);
    const freshOrphan = join(root(), 'fresh-orphan');
    await mkdir(freshOrphan);
    await writeFile(join(freshOrphan, 'body'), 'still streaming in');
    const copy = join(root(), 'copies', 'a-copy');
    await mkdir(copy, { recursive: true });
    await writeFile(join(copy, 'body'), 'a taken-over body');
    await utimes(copy, twoHoursAgo, twoHoursAgo);

    node = await startServer(settings());
    const deadline = Date.now() + 10_000;
    while ((existsSync(ended) || existsSync(oldOrphan)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect({ ended: existsSync(ended), oldOrphan: existsSync(oldOrphan), freshOrphan: existsSync(freshOrphan), copy: existsSync(copy) }).toEqual({
      ended: false,
      oldOrphan: false,
      freshOrphan: true,
      copy: true,
    });
  }, 120_000);
});
