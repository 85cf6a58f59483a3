import { PostingsCompactor } from '../../src/indexes/positions/postings-compactor.js';
import type { PositionPostingsRepository } from '../../src/indexes/positions/postings.repository.js';
import type { Query } from '../../src/database/sql.js';

/** A repository whose merges fail while `failing` says so, and otherwise find no runs to merge; it counts the tries. */
function postingsFailing(failing: (tries: number) => boolean) {
  const tried = { count: 0 };
  const query: Query = async () => [];
  const postings = {
    whileCompacting: async (work: (query: Query) => Promise<void>) => {
      tried.count++;
      if (failing(tried.count)) throw new Error('timeout exceeded when trying to connect');
      await work(query);
    },
    runs: async () => [],
  } as unknown as PositionPostingsRepository;
  return { postings, tried };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the postings compactor', () => {
  it('tries a merge that failed again without waiting for another write', async () => {
    const { postings, tried } = postingsFailing((count) => count === 1);
    const compactor = new PostingsCompactor(postings, 50);
    compactor.kick();
    await compactor.idle();
    expect(tried.count).toBe(1);
    // The retry (50 ms), then the look it tells for soon (200 ms): nothing else kicks it.
    await sleep(600);
    await compactor.idle();
    expect(tried.count).toBe(2);
    await sleep(300);
    expect(tried.count).toBe(2);
    await compactor.stop();
  });

  it('tries no more once stopped', async () => {
    const { postings, tried } = postingsFailing(() => true);
    const compactor = new PostingsCompactor(postings, 50);
    compactor.kick();
    await compactor.idle();
    await compactor.stop();
    await sleep(400);
    expect(tried.count).toBe(1);
  });
});
