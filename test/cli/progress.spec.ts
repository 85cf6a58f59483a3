import { progressFor } from '../../src/cli/progress.js';

/**
 * The progress display on a terminal: its stream as far as cli-progress looks at one (writes
 * collected, no escapes interpreted), and everything written to it so far.
 */
function onTerminal() {
  let written = '';
  const stderr = { isTTY: true, columns: 200, write: (text: string) => ((written += text), true) } as unknown as NodeJS.WritableStream & { isTTY: boolean };
  return { progress: progressFor({ stdout: { write: () => true }, stderr, env: {} }, false), output: () => written };
}

describe('progress on a terminal', () => {
  it('turns an archive count into a bar with an ETA once the import says how many files it holds', () => {
    const { progress, output } = onTerminal();
    // While the archive is sent, nothing says how many files it has: a count and a rate.
    progress.begin('games.tgz', 'files');
    expect(output()).toContain('games.tgz 0 | 0.0 files/s');
    expect(output()).not.toContain('ETA');
    // The import answers with its total (131 files): from then on a bar, the count of the total and an ETA.
    progress.update(0, 131, '0 games stored');
    progress.update(65, 131, '120 games stored');
    progress.end();
    expect(output()).toMatch(/games\.tgz \S+ \d+% \| 65\/131 files \| [\d.]+ files\/s \| ETA \S+ \| 120 games stored/);
  });

  it('shows plain files with their total from the start', () => {
    const { progress, output } = onTerminal();
    progress.begin('files', 'files', 4);
    progress.update(1, 4, '1 games stored');
    progress.end();
    expect(output()).toMatch(/files \S+ 25% \| 1\/4 files \| [\d.]+ files\/s \| ETA \S+ \| 1 games stored/);
  });

  it('shows an archive being sent as bytes of its size, with an ETA', () => {
    const { progress, output } = onTerminal();
    progress.begin('games.tar (sending)', 'bytes', 3 * 1024 * 1024);
    progress.update(1024 * 1024);
    progress.end();
    expect(output()).toMatch(/games\.tar \(sending\) \S+ 33% \| 1\.0 MiB of 3\.0 MiB \| [^|]+\/s \| ETA \S+/);
  });

  it('writes the ETA as ? until something is done to reckon it from', () => {
    const { progress, output } = onTerminal();
    progress.begin('games.tar', 'files', 6);
    progress.update(0, 6, '0 games stored');
    progress.end();
    expect(output()).toContain('0/6 files | 0.0 files/s | ETA ? | 0 games stored');
    expect(output()).not.toMatch(/ETA N/);
  });
});
