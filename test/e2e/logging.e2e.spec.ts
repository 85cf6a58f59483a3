import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { checkResponsesOf } from '../support/spec-check.js';

/**
 * The built server's own output, as an operator sees it in a file or a log collector: one
 * access-log line per request, JSON with LOG_FORMAT=json, and no terminal colour codes in a pipe.
 */
interface Served {
  readonly child: ChildProcess;
  readonly baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

async function serve(env: Record<string, string>): Promise<Served> {
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: 'memory://', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const deadline = Date.now() + 30_000;
  let match: RegExpExecArray | null = null;
  while (!(match = /serving the archive on (http:\/\/[^\s"]+)/.exec(text))) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const baseUrl = match[1].replace('[::1]', '127.0.0.1');
  checkResponsesOf(baseUrl);
  return {
    child,
    baseUrl,
    output: () => text,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** Waits until the output holds a line matching the pattern (logs are written as requests end). */
async function lineMatching(served: Served, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const line = served.output().split('\n').find((candidate) => pattern.test(candidate));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no log line matches ${pattern}:\n${served.output()}`);
}

describe('logs of the built server', () => {
  it('writes one JSON access-log line per request with LOG_FORMAT=json, with the request id of the answer', async () => {
    const served = await serve({ LOG_FORMAT: 'json', LOG_LEVEL: 'log' });
    try {
      const ok = await fetch(`${served.baseUrl}/health`);
      const missing = await fetch(`${served.baseUrl}/games/77`);
      for (const [response, path, status] of [
        [ok, '/health', 200],
        [missing, '/games/77', 404],
      ] as const) {
        const id = response.headers.get('x-request-id')!;
        const entry = JSON.parse(await lineMatching(served, new RegExp(`"requestId":"${id}"`)));
        expect(entry).toMatchObject({ requestId: id, req: { method: 'GET', url: path }, res: { statusCode: status } });
        expect(typeof entry.responseTime).toBe('number');
        expect(Number(entry.res.bytes)).toBe(Number(response.headers.get('content-length')));
        expect(entry.msg).toContain(`GET ${path} ${status}`);
      }
      for (const line of served.output().trim().split('\n')) expect(() => JSON.parse(line)).not.toThrow();
    } finally {
      await served.stop();
    }
  });

  it('writes readable lines without colour codes when the output is not a terminal', async () => {
    const served = await serve({ LOG_LEVEL: 'log' });
    try {
      const response = await fetch(`${served.baseUrl}/games?limit=1`);
      const id = response.headers.get('x-request-id')!;
      const line = await lineMatching(served, new RegExp(id));
      expect(line).toMatch(new RegExp(`GET /games\\?limit=1 200 \\d+ms \\d+B \\[${id}\\]`));
      expect(served.output()).not.toMatch(/\u001b\[/);
    } finally {
      await served.stop();
    }
  });
});
