/**
 * A small XML reader for documents libxml2 has already accepted (well-formed, no DTD): it keeps
 * the source offsets of every element and attribute value, which the archive needs to store the
 * Header/Body nodes verbatim, to point at elements in messages and to rewrite a file by splicing
 * instead of re-serialising it. Iterative, so nesting depth costs heap, not stack.
 */
export interface XmlAttribute {
  readonly name: string;
  /** Decoded value (entities and character references resolved). */
  readonly value: string;
  /** Offsets of the raw value between its quotes. */
  readonly valueStart: number;
  readonly valueEnd: number;
}

export interface XmlElement {
  readonly name: string;
  readonly attributes: readonly XmlAttribute[];
  /** Offset of the `<` of the start tag. */
  readonly start: number;
  /** Offset just after the `>` of the start tag (`/>` for an empty-element tag). */
  startTagEnd: number;
  /** Offset just after the end tag (equals `startTagEnd` for `<x/>`). */
  end: number;
  selfClosing: boolean;
  readonly children: XmlElement[];
  /** The element's own character data (not its children's), decoded. */
  text: string;
}

export function attribute(element: XmlElement, name: string): string | undefined {
  for (const a of element.attributes) if (a.name === name) return a.value;
  return undefined;
}

export function attributeNode(element: XmlElement, name: string): XmlAttribute | undefined {
  return element.attributes.find((a) => a.name === name);
}

/** Offset where the element's content ends: the `<` of its end tag (`startTagEnd` for `<x/>`). */
export function contentEnd(text: string, element: XmlElement): number {
  return element.selfClosing ? element.startTagEnd : text.lastIndexOf('</', element.end - 1);
}

export function childElements(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

// XML's white space is these four characters only; JavaScript's \s also matches U+FEFF and others,
// which XML allows inside names (a name may start with U+FEFF).
const NAME_END = /[ \t\r\n/>=]/;

/** Trims XML white space (space, tab, CR, LF) only. */
export function trimXmlSpace(value: string): string {
  return value.replace(/^[ \t\r\n]+|[ \t\r\n]+$/g, '');
}

/** The xs:token normalisation: XML white space runs collapse to one space, then trimmed. */
export function collapseXmlSpace(value: string): string {
  return trimXmlSpace(value.replace(/[ \t\r\n]+/g, ' '));
}

/** Parses the document element. Throws a plain Error on input libxml2 would not have accepted. */
export function parseXmlTree(text: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  const n = text.length;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i && stack.length > 0) stack[stack.length - 1].text += decodeEntities(text.slice(i, textEnd));
    if (lt < 0) break;
    i = lt;
    if (text.startsWith('<?', i)) {
      i = expectIndex(text, '?>', i) + 2;
    } else if (text.startsWith('<!--', i)) {
      i = expectIndex(text, '-->', i) + 3;
    } else if (text.startsWith('<![CDATA[', i)) {
      const close = expectIndex(text, ']]>', i);
      if (stack.length > 0) stack[stack.length - 1].text += text.slice(i + 9, close);
      i = close + 3;
    } else if (text.startsWith('<!', i)) {
      throw new Error(`declarations are not supported (offset ${i})`);
    } else if (text.startsWith('</', i)) {
      const close = expectIndex(text, '>', i);
      const element = stack.pop();
      const name = trimXmlSpace(text.slice(i + 2, close));
      if (!element || element.name !== name) throw new Error(`unexpected end tag </${name}> at offset ${i}`);
      element.end = close + 1;
      i = close + 1;
    } else {
      i = readStartTag(text, i, stack, (element) => {
        if (stack.length > 0) stack[stack.length - 1].children.push(element);
        else if (!root) root = element;
        else throw new Error(`a second document element at offset ${element.start}`);
      });
    }
  }
  if (!root || stack.length > 0) throw new Error('the document element is missing or not closed');
  return root;
}

function readStartTag(text: string, start: number, stack: XmlElement[], attach: (element: XmlElement) => void): number {
  let i = start + 1;
  const nameEnd = scanName(text, i);
  const name = text.slice(i, nameEnd);
  i = nameEnd;
  const attributes: XmlAttribute[] = [];
  for (;;) {
    while (isSpace(text.charCodeAt(i))) i++;
    const c = text[i];
    if (c === '>' || c === '/') break;
    if (i >= text.length) throw new Error(`unterminated start tag at offset ${start}`);
    const attrEnd = scanName(text, i);
    const attrName = text.slice(i, attrEnd);
    i = attrEnd;
    while (isSpace(text.charCodeAt(i))) i++;
    if (text[i] !== '=') throw new Error(`attribute ${attrName} without a value at offset ${i}`);
    i++;
    while (isSpace(text.charCodeAt(i))) i++;
    const quote = text[i];
    if (quote !== '"' && quote !== "'") throw new Error(`unquoted attribute value at offset ${i}`);
    const close = expectIndex(text, quote, i + 1);
    // Attribute-value normalisation: literal tabs and line ends read as spaces.
    const value = decodeEntities(text.slice(i + 1, close).replace(/[\t\n\r]/g, ' '));
    attributes.push({ name: attrName, value, valueStart: i + 1, valueEnd: close });
    i = close + 1;
  }
  const selfClosing = text[i] === '/';
  const tagEnd = selfClosing ? i + 2 : i + 1;
  const element: XmlElement = { name, attributes, start, startTagEnd: tagEnd, end: tagEnd, selfClosing, children: [], text: '' };
  attach(element);
  if (!selfClosing) stack.push(element);
  return tagEnd;
}

function scanName(text: string, from: number): number {
  let i = from;
  while (i < text.length && !NAME_END.test(text[i])) i++;
  if (i === from) throw new Error(`a name was expected at offset ${from}`);
  return i;
}

function expectIndex(text: string, token: string, from: number): number {
  const at = text.indexOf(token, from);
  if (at < 0) throw new Error(`"${token}" expected after offset ${from}`);
  return at;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return String.fromCodePoint(parseInt(ref.slice(2), 16));
    if (ref.startsWith('#')) return String.fromCodePoint(parseInt(ref.slice(1), 10));
    return NAMED[ref] ?? whole;
  });
}

export function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}
