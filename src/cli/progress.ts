import cliProgress from 'cli-progress';

/** Where the command writes: injected, so tests run the CLI in-process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Where `tabula login` reads a token from when not given one; absent, it must be given. */
  readonly stdin?: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
}

/** How a phase counts: files, or bytes sent or received (a bar with ETA when the total is known). */
export type Unit = 'files' | 'bytes';

/**
 * Progress on stderr: a cli-progress bar (count, rate, ETA) when stderr is a terminal, otherwise
 * plain lines — one per `note`, and a count line at most every few seconds — that read well in a log.
 */
export interface Progress {
  begin(label: string, unit: Unit, total?: number): void;
  /** `extra`: what else the phase has counted so far (games), shown beside the count. */
  update(done: number, total?: number, extra?: string): void;
  /** A line about one item (a file refused, an archive finished); only in plain mode, a bar shows counts. */
  note(text: string): void;
  end(): void;
}

export function progressFor(io: CliIo, quiet: boolean): Progress {
  if (quiet) return { begin() {}, update() {}, note() {}, end() {} };
  return io.stderr.isTTY ? new BarProgress(io.stderr) : new LineProgress(io.stderr);
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

function amount(value: number, unit: Unit): string {
  return unit === 'bytes' ? formatBytes(value) : `${value}`;
}

function rate(done: number, started: number, unit: Unit): string {
  const seconds = (Date.now() - started) / 1000;
  const perSecond = seconds > 0 ? done / seconds : 0;
  return unit === 'bytes' ? `${formatBytes(perSecond)}/s` : `${perSecond.toFixed(1)} files/s`;
}

/**
 * cli-progress's time format, but `?` while the ETA is no number yet: cli-progress keeps it as the
 * text `INF` or `NULL` then (nothing done yet), and its format cut that to `NFs`.
 */
const eta: cliProgress.TimeFormatter = (seconds, options, roundTo) =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? cliProgress.Format.TimeFormat(seconds, options, roundTo) : '?';

class BarProgress implements Progress {
  private bar?: cliProgress.SingleBar;
  private label = '';
  private unit: Unit = 'files';
  private started = 0;
  private total?: number;

  constructor(private readonly stream: NodeJS.WritableStream) {}

  begin(label: string, unit: Unit, total?: number): void {
    this.end();
    this.label = label;
    this.unit = unit;
    this.total = total;
    this.started = Date.now();
    this.start(0, '');
  }

  update(done: number, total?: number, extra?: string): void {
    if (!this.bar) return;
    const shown = extra ? ` | ${extra}` : '';
    if (total !== undefined && total !== this.total) {
      const counting = this.unit === 'files' && this.total === undefined;
      this.total = total;
      if (counting) {
        // Files counted without a total (an archive while it is sent) get their bar and ETA once the archive says how many it holds.
        this.bar.stop();
        this.start(done, shown);
        return;
      }
      this.bar.setTotal(total);
    }
    this.bar.update(done, { amount: amount(done, this.unit), rate: rate(done, this.started, this.unit), extra: shown });
  }

  /** A bar from `done`: with its total and an ETA when the total is known, else the count and rate (for files, cleared when replaced by the bar). */
  private start(done: number, extra: string): void {
    const barred = this.total !== undefined;
    const counted = !barred
      ? '{amount} | {rate}'
      : this.unit === 'files'
        ? '{bar} {percentage}% | {value}/{total} files | {rate} | ETA {eta_formatted}'
        : `{bar} {percentage}% | {amount} of ${formatBytes(this.total!)} | {rate} | ETA {eta_formatted}`;
    this.bar = new cliProgress.SingleBar(
      {
        format: `${this.label} ${counted}{extra}`,
        stream: this.stream,
        hideCursor: true,
        etaBuffer: 50,
        fps: 5,
        noTTYOutput: false,
        clearOnComplete: this.unit === 'files' && !barred,
        formatTime: eta,
      },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(this.total ?? 0, done, { amount: amount(done, this.unit), rate: rate(done, this.started, this.unit), extra });
  }

  note(): void {}

  end(): void {
    this.bar?.stop();
    this.bar = undefined;
  }
}

/** Seconds between count lines in plain mode. */
const LINE_EVERY_MS = 5000;

class LineProgress implements Progress {
  private label = '';
  private unit: Unit = 'files';
  private started = 0;
  private lastLine = 0;
  private last?: { done: number; total?: number; extra?: string };

  constructor(private readonly stream: NodeJS.WritableStream) {}

  begin(label: string, unit: Unit, total?: number): void {
    this.end();
    this.label = label;
    this.unit = unit;
    this.started = Date.now();
    this.lastLine = this.started;
    this.last = { done: 0, total };
  }

  update(done: number, total?: number, extra?: string): void {
    this.last = { done, total: total ?? this.last?.total, extra };
    if (Date.now() - this.lastLine >= LINE_EVERY_MS) this.print();
  }

  note(text: string): void {
    this.stream.write(`${text}\n`);
  }

  end(): void {
    if (this.last && this.last.done > 0) this.print();
    this.last = undefined;
  }

  private print(): void {
    if (!this.last) return;
    this.lastLine = Date.now();
    const { done, total, extra } = this.last;
    const of = total !== undefined ? (this.unit === 'files' ? `/${total}` : ` of ${formatBytes(total)}`) : '';
    const count = this.unit === 'files' ? `${done}${of} files` : `${amount(done, this.unit)}${of}`;
    this.stream.write(`${this.label}: ${count}, ${rate(done, this.started, this.unit)}${extra ? `, ${extra}` : ''}\n`);
  }
}
