/** A line of text with where it starts; CRLF, CR and LF all end a line (as `locate` counts them). */
export interface TextLine {
  readonly text: string;
  /** 0-based offset of the line's first character. */
  readonly start: number;
  /** 0-based offset just after the line's terminator (or the end of the text). */
  readonly next: number;
}

/** The lines one at a time, so a file of a million blank lines is never held as a million objects. */
export function* eachLine(text: string): Generator<TextLine> {
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c !== '\r' && c !== '\n') continue;
    const next = c === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1;
    yield { text: text.slice(start, i), start, next };
    start = next;
    i = next - 1;
  }
  if (start < text.length) yield { text: text.slice(start), start, next: text.length };
}
