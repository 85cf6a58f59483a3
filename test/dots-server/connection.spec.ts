import { jest } from '@jest/globals';
import { ManualClock } from '../support/manual-clock.js';
import { DotsLobby } from '../../src/dots-server/lobby.js';
import { DotsConnection, TransportLimits } from '../../src/dots-server/tcp-server.js';
import { MemoryStore } from '../support/dots-server/memory-store.js';
import { fakeStream } from '../support/dots-server/fake-stream.js';

// The transport's per-connection rules, on a fake stream: answers in order, the pending-bytes budget.

const LIMITS: TransportLimits = { maxLine: 64, idleTimeoutMs: 60_000, maxPendingBytes: 4096 };

const stream = fakeStream;

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('a connection', () => {
  it('answers pipelined requests one at a time, in order', async () => {
    const io = stream();
    const connection = new DotsConnection(new DotsLobby(new MemoryStore(), new ManualClock()), LIMITS, io);
    connection.receive(Buffer.from('REG ann pw\n\n\nLOG ann pw\n\n\nHEY\n\n\nUST\n\n\n'));
    for (let i = 0; i < 10; i++) await flush();
    expect(io.written.map((a) => a.split('\n')[0])).toEqual(['200', '200', '401 unknown_command "HEY" is not a request; one of REG LOG LGT UST GLS NEW JOI FIN TRN SRD', '201']);
    connection.gone();
  });

  it('is dropped when the client leaves its answers unread past the budget', async () => {
    const io = stream();
    const connection = new DotsConnection(new DotsLobby(new MemoryStore(), new ManualClock()), LIMITS, io);
    io.pendingBytes = 5000;
    connection.receive(Buffer.from('GLS\n\n\n'));
    await flush();
    expect(io.written).toEqual(['404 not_logged_in\n\n\n']);
    expect(io.destroyed).toBe(true);
  });

  it('is dropped when it queues more requests than the budget holds', () => {
    const io = stream();
    const connection = new DotsConnection(new DotsLobby(new MemoryStore(), new ManualClock()), LIMITS, io);
    // 4096 / 64 = 64 queued requests at most.
    connection.receive(Buffer.from('REG a b\n\n\n'.repeat(65)));
    expect(io.destroyed).toBe(true);
  });
});

describe('the idle timeout', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('closes a connection without a valid request, unless its player sits at a game', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const lobby = new DotsLobby(new MemoryStore(), new ManualClock());
    const limits = { ...LIMITS, idleTimeoutMs: 1000 };
    const silent = stream();
    const junk = new DotsConnection(lobby, limits, silent);
    const seated = stream();
    const player = new DotsConnection(lobby, limits, seated);
    player.receive(Buffer.from('REG ann pw\n\n\nLOG ann pw\n\n\nNEW 2 10 10 15 0\n\n\n'));
    for (let i = 0; i < 10; i++) await flush();
    expect(seated.written.map((a) => a.split('\n')[0])).toEqual(['200', '200', '203']);
    // Junk does not count as a request.
    junk.receive(Buffer.from('HEY\n\n\n'));
    await flush();
    expect(silent.written.map((a) => a.split(' ')[0])).toEqual(['401']);
    silent.written.length = 0;
    jest.advanceTimersByTime(999);
    expect(silent.ended).toBe(false);
    jest.advanceTimersByTime(1);
    expect([silent.written, silent.ended]).toEqual([['401 idle_timeout no request for 1000 ms\n\n\n'], true]);
    jest.advanceTimersByTime(5000);
    expect(seated.ended).toBe(false);
    player.gone();
  });
});
