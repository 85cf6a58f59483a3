import { connect, Socket } from 'node:net';

/**
 * A scripted client of the Dots server's TCP protocol: sends request lines (each followed by the
 * two empty lines the protocol asks for) and reads whole answers, which end with two empty lines
 * after their last line (`\n\n\n` in the stream; 202's blank lines between blocks are single).
 */
export class DotsClient {
  private buffer = '';
  private readonly answers: string[] = [];
  private waiting: { resolve: (answer: string) => void; reject: (error: Error) => void } | null = null;
  closed = false;

  private constructor(readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      for (let end = this.buffer.indexOf('\n\n\n'); end >= 0; end = this.buffer.indexOf('\n\n\n')) {
        this.answers.push(this.buffer.slice(0, end + 3));
        this.buffer = this.buffer.slice(end + 3);
      }
      this.deliver();
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      this.closed = true;
      this.waiting?.reject(new Error(`the server closed the connection (unread: ${JSON.stringify(this.buffer)})`));
      this.waiting = null;
    });
  }

  static open(port: number, host = '127.0.0.1'): Promise<DotsClient> {
    return new Promise((resolve, reject) => {
      const socket = connect(port, host, () => resolve(new DotsClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Writes raw text or bytes, unframed. */
  write(data: string | Buffer): void {
    this.socket.write(data);
  }

  /** Sends one request and returns its answer (the next answer received). */
  async ask(line: string): Promise<string> {
    this.write(`${line}\n\n\n`);
    return this.next();
  }

  /** The first line of the answer to `line`. */
  async code(line: string): Promise<string> {
    return (await this.ask(line)).split('\n')[0];
  }

  /** Sends one request and returns its answer, passing over pushed states (GSC, 204) before it. */
  async reply(line: string, timeoutMs = 5000): Promise<string> {
    this.write(`${line}\n\n\n`);
    for (;;) {
      const answer = await this.next(timeoutMs);
      if (!answer.startsWith('GSC\n') && !answer.startsWith('204\n')) return answer;
    }
  }

  /** The next answer or push, waiting for it. */
  next(timeoutMs = 5000): Promise<string> {
    const ready = this.answers.shift();
    if (ready !== undefined) return Promise.resolve(ready);
    if (this.closed) return Promise.reject(new Error('the connection is closed'));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        reject(new Error(`no answer within ${timeoutMs} ms (unread: ${JSON.stringify(this.buffer)})`));
      }, timeoutMs);
      this.waiting = {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  /** Answers received and not read yet. */
  get unread(): number {
    return this.answers.length;
  }

  /** Resolves when the server has closed the connection. */
  whenClosed(): Promise<void> {
    return this.closed ? Promise.resolve() : new Promise((resolve) => this.socket.once('close', () => resolve()));
  }

  close(): void {
    this.socket.destroy();
  }

  private deliver(): void {
    if (this.waiting === null || this.answers.length === 0) return;
    const waiting = this.waiting;
    this.waiting = null;
    waiting.resolve(this.answers.shift()!);
  }
}
