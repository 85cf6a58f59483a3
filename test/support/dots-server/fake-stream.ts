/** A Dots connection's stream for tests: what was written, and whether it was ended or destroyed. */
export interface FakeStream {
  readonly written: string[];
  ended: boolean;
  destroyed: boolean;
  pendingBytes: number;
  write(text: string): void;
  end(): void;
  destroy(): void;
}

export function fakeStream(): FakeStream {
  return {
    written: [],
    ended: false,
    destroyed: false,
    pendingBytes: 0,
    write(text) {
      this.written.push(text);
    },
    end() {
      this.ended = true;
    },
    destroy() {
      this.destroyed = true;
    },
  };
}
