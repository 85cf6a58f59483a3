/** Where a part of a file lies in its bytes: from `start` (inclusive) to `end` (exclusive). */
export interface ByteSpan {
  readonly start: number;
  readonly end: number;
}

export interface TextSpans {
  readonly header: ByteSpan | null;
  readonly body: ByteSpan | null;
}

/**
 * Where a plugin's header and body texts lie in the uploaded bytes, so the archive can keep two
 * ranges instead of two copies: the header's first occurrence, then the body's first occurrence
 * after the header (anywhere when there is no header or it comes later). A part that is not a
 * verbatim slice of the bytes (re-encoded UTF-16, text a plugin rewrote) has no span and is kept
 * as text. The LeanStorage migration locates the texts of games stored before in the same way.
 */
export function locateTextSpans(bytes: Buffer, header: string | null, body: string | null): TextSpans {
  const headerSpan = header === null ? null : locate(bytes, Buffer.from(header, 'utf8'), 0);
  const bodyBytes = body === null ? null : Buffer.from(body, 'utf8');
  const bodySpan =
    bodyBytes === null ? null : ((headerSpan && locate(bytes, bodyBytes, headerSpan.end)) ?? locate(bytes, bodyBytes, 0));
  return { header: headerSpan, body: bodySpan };
}

function locate(bytes: Buffer, part: Buffer, from: number): ByteSpan | null {
  const start = part.length === 0 ? from : bytes.indexOf(part, from);
  return start < 0 ? null : { start, end: start + part.length };
}
