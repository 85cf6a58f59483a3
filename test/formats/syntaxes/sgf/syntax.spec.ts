import { readFileSync } from 'node:fs';
import { FormatError } from '../../../../src/core/errors.js';
import { DEFAULT_LIMITS, ReadLimits } from '../../../../src/core/limits.js';
import {
  SgfNode,
  composeParts,
  escapeValue,
  firstText,
  parseSgf,
  peekRootProperty,
  propertyValues,
  simpleText,
  splitSgf,
} from '../../../../src/formats/syntaxes/sgf/index.js';

const parse = (text: string | Buffer, limits: ReadLimits = DEFAULT_LIMITS) => parseSgf(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, limits);

function refusal(run: () => unknown): FormatError {
  try {
    run();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw error;
  }
  throw new Error('no FormatError');
}

/** The main line: the first child at every node. */
function line(root: SgfNode): SgfNode[] {
  const nodes = [root];
  while (nodes[nodes.length - 1].children.length > 0) nodes.push(nodes[nodes.length - 1].children[0]);
  return nodes;
}

describe('SGF syntax: nodes, properties, values', () => {
  it('reads a sequence, then variations as further children of its last node', () => {
    const { trees } = parse('(;GM[1];B[aa];W[bb](;B[cc];W[dd])(;B[ee]))');
    expect(trees).toHaveLength(1);
    const [root, b1, w1] = line(trees[0].root);
    expect(firstText(root, 'GM')).toBe('1');
    expect(firstText(b1, 'B')).toBe('aa');
    expect(w1.children.map((c) => firstText(c, 'B'))).toEqual(['cc', 'ee']);
    expect(firstText(w1.children[0].children[0], 'W')).toBe('dd');
    expect(trees[0].nodes).toBe(6);
  });

  it('resolves escapes and soft line breaks, and keeps other line breaks', () => {
    const text = '(;C[a \\] b \\\\ c \\: d\\\nsoft\\\r\nbreak\nhard]PB[x\\y])';
    const root = parse(text).trees[0].root;
    expect(firstText(root, 'C')).toBe('a ] b \\ c : dsoftbreak\nhard');
    expect(firstText(root, 'PB')).toBe('xy');
  });

  it('splits a composed value at its first unescaped colon only', () => {
    const root = parse('(;SZ[19:13]LB[dd:a\\:b]AP[x\\:y:1.0])').trees[0].root;
    expect(composeParts(propertyValues(root, 'SZ')[0])).toEqual(['19', '13']);
    expect(composeParts(propertyValues(root, 'LB')[0])).toEqual(['dd', 'a:b']);
    expect(composeParts(propertyValues(root, 'AP')[0])).toEqual(['x:y', '1.0']);
    expect(composeParts(propertyValues(parse('(;SZ[19])').trees[0].root, 'SZ')[0])).toBeNull();
  });

  it('takes FF[3] identifiers by their upper-case letters and allows blanks between values', () => {
    const root = parse('(;FF[3]AddBlack [aa]\n  [bb]\t[cc] CoPyright[me]White[dd])').trees[0].root;
    expect(root.properties.map((p) => [p.id, p.written])).toEqual([
      ['FF', 'FF'],
      ['AB', 'AddBlack'],
      ['CP', 'CoPyright'],
      ['W', 'White'],
    ]);
    expect(propertyValues(root, 'AB').map((v) => v.text)).toEqual(['aa', 'bb', 'cc']);
  });

  it('gives every value and node its byte offsets', () => {
    const bytes = Buffer.from('(;PB[Čapek]\n;B[aa])', 'utf8');
    const { trees } = parse(bytes);
    const pb = propertyValues(trees[0].root, 'PB')[0];
    // "Č" is two bytes in UTF-8: the value spans bytes 5..11.
    expect([pb.start, pb.end]).toEqual([5, 11]);
    expect(bytes.subarray(pb.start, pb.end).toString('utf8')).toBe('Čapek');
    expect([trees[0].root.start, trees[0].root.end]).toEqual([1, 12]);
    expect(trees[0].root.children[0].start).toBe(13);
  });

  it('SimpleText and escaping for writers', () => {
    expect(simpleText('  Lee\nSedol\t ')).toBe('Lee Sedol');
    expect(escapeValue('a]b\\c:d')).toBe('a\\]b\\\\c:d');
    expect(escapeValue('a:b', true)).toBe('a\\:b');
  });
});

describe('SGF collections', () => {
  it('split() gives each game tree\'s exact byte range, text around them skipped', () => {
    const text = 'Two games:\r\n(;GM[1]C[a (nested) ) paren];B[aa])\n  (;GM[1];W[bb](;B[cc])(;B[dd]))\nend';
    const bytes = Buffer.from(text, 'utf8');
    const first = text.indexOf('(;');
    const second = text.indexOf('(;', first + 1);
    expect(splitSgf(bytes, DEFAULT_LIMITS)).toEqual([
      { start: first, end: text.indexOf('\n  (;') },
      { start: second, end: text.lastIndexOf('\nend') },
    ]);
    expect(bytes.subarray(first, text.indexOf('\n  (;')).toString()).toBe('(;GM[1]C[a (nested) ) paren];B[aa])');
    expect(parse(bytes).trees.map((t) => [t.start, t.end])).toEqual([
      [12, 47],
      [50, 80],
    ]);
  });

  it('byte ranges stay byte ranges with multi-byte names', () => {
    const text = '(;PB[李昂弈道])(;PW[赵治勋])';
    const bytes = Buffer.from(text, 'utf8');
    const ranges = splitSgf(bytes, DEFAULT_LIMITS);
    expect(ranges.map((r) => bytes.subarray(r.start, r.end).toString('utf8'))).toEqual(['(;PB[李昂弈道])', '(;PW[赵治勋])']);
    // 4 CJK characters of 3 bytes each, plus "(;PB[])" = 7 bytes.
    expect(ranges[0]).toEqual({ start: 0, end: 19 });
  });
});

describe('SGF charsets', () => {
  it('reads a Latin-1 file without CA as Latin-1 (GNU Go\'s egc2001/tg-gg.sgf: "créé par TurboGo")', () => {
    const bytes = readFileSync('test/fixtures/realdata/go/gnugo_regression_games/egc2001/tg-gg.sgf');
    const collection = parseSgf(bytes, DEFAULT_LIMITS);
    expect(collection.charset).toMatchObject({ source: 'latin-1', declared: null });
    const root = collection.trees[0].root;
    const comments = root.properties.filter((p) => p.values.some((v) => v.text.includes('par TurboGo')));
    expect(comments.length).toBeGreaterThan(0);
    expect(comments[0].values.map((v) => v.text).join()).toContain('créé par TurboGo');
    expect(collection.invalidValues).toBe(0);
  });

  it('reads UTF-8 without CA as UTF-8, and CA[UTF-8] as declared', () => {
    expect(parse('(;PB[Čapek])').charset).toMatchObject({ encoding: 'utf-8', source: 'utf-8' });
    expect(parse('(;CA[UTF-8]PB[Čapek])').charset).toMatchObject({ encoding: 'utf-8', source: 'declared', declared: 'UTF-8' });
  });

  it('honours CA[ISO-8859-1] even for bytes that would be valid UTF-8', () => {
    // "Ã©" in Latin-1 is the UTF-8 encoding of "é": the declaration decides.
    const root = parse(Buffer.concat([Buffer.from('(;CA[ISO-8859-1]PB['), Buffer.from([0xc3, 0xa9]), Buffer.from('])')])).trees[0].root;
    expect(firstText(root, 'PB')).toBe('Ã©');
  });

  it('steps over double-byte characters whose second byte is "]" or "\\" (Shift_JIS, GBK)', () => {
    // Shift_JIS 0x83 0x5D is "ゾ" and 0x95 0x5C is "表": their second bytes are "]" and "\".
    const sjis = Buffer.concat([Buffer.from('(;CA[Shift_JIS]PB['), Buffer.from([0x83, 0x5d, 0x95, 0x5c]), Buffer.from(']PW[x])')]);
    const root = parse(sjis).trees[0].root;
    expect(firstText(root, 'PB')).toBe(new TextDecoder('shift_jis').decode(Buffer.from([0x83, 0x5d, 0x95, 0x5c])));
    expect(firstText(root, 'PB')).toBe('ゾ表');
    expect(firstText(root, 'PW')).toBe('x');
    // GBK: 0xD6 0xD0 is "中"; 0x81 0x5D is a GBK character with "]" as its second byte.
    const gbk = Buffer.concat([Buffer.from('(;CA[gb2312]PB['), Buffer.from([0xd6, 0xd0, 0x81, 0x5d]), Buffer.from('])')]);
    const gbRoot = parse(gbk).trees[0].root;
    expect(firstText(gbRoot, 'PB')).toBe(new TextDecoder('gbk').decode(Buffer.from([0xd6, 0xd0, 0x81, 0x5d])));
    expect(firstText(gbRoot, 'PB')?.startsWith('中')).toBe(true);
    expect(firstText(gbRoot, 'PB')).toHaveLength(2);
  });

  it('falls back to UTF-8/Latin-1 for a CA it cannot use, and counts values that are not text in the declared charset', () => {
    const unknown = parse('(;CA[klingon]PB[x])');
    expect(unknown.charset).toMatchObject({ source: 'utf-8', declared: 'klingon' });
    expect(unknown.charset.ignored).toMatch(/klingon/);
    expect(parse('(;CA[UTF-16]PB[x])').charset.ignored).toMatch(/not ASCII-compatible/);
    const wrong = parse(Buffer.concat([Buffer.from('(;CA[UTF-8]PB[caf'), Buffer.from([0xe9]), Buffer.from('])')]));
    expect(wrong.invalidValues).toBe(1);
    // The value "caf\xe9" starts after "(;CA[UTF-8]PB[", 14 bytes.
    expect(wrong.firstInvalidValueAt).toBe(14);
    expect(firstText(wrong.trees[0].root, 'PB')).toBe('caf\uFFFD');
  });

  it('peeks at the first root node without parsing (detection)', () => {
    expect(peekRootProperty(Buffer.from('\uFEFF  (;FF[4]GM[40]SZ[39:32];B[aa])'), 'GM')).toBe('40');
    expect(peekRootProperty(Buffer.from('notes first (see below)\n(;GM[1])'), 'GM')).toBe('1');
    expect(peekRootProperty(Buffer.from('(;FF[4];GM[40])'), 'GM')).toBeNull();
    expect(peekRootProperty(Buffer.from('(;GM[1'), 'GM')).toBeNull();
  });
});

describe('SGF errors and bounds', () => {
  const cases: [string, string, RegExp, { line: number; column: number }][] = [
    ['unclosed tree', '(;GM[1]\n;B[aa]', /not closed/, { line: 1, column: 1 }],
    ['unclosed value', '(;GM[1]\n;C[abc', /not closed with "]"/, { line: 2, column: 3 }],
    ['property without value', '(;GM[1]\n;B ;W[aa])', /has no value/, { line: 2, column: 3 }],
    ['garbage in a node', '(;GM[1]\n  ;B[aa]?)', /unexpected "\?"/, { line: 2, column: 9 }],
    ['lower-case identifier only', '(;GM[1];b[aa])', /no upper-case letter/, { line: 1, column: 9 }],
    ['node after a variation', '(;GM[1](;B[aa]);W[bb])', /node after a variation/, { line: 1, column: 16 }],
    ['empty variation', '(;GM[1]( ))', /must start with a node/, { line: 1, column: 8 }],
    ['no tree at all', 'just text', /no game tree/, { line: 1, column: 1 }],
  ];
  it.each(cases)('%s is a FormatError at its line and column', (_name, text, message, where) => {
    const error = refusal(() => parse(text));
    expect(error.code).toBe('format.malformed');
    expect(error.message).toMatch(message);
    expect(error.issues[0]).toMatchObject(where);
    // split() checks the same syntax.
    expect(refusal(() => splitSgf(Buffer.from(text), DEFAULT_LIMITS)).issues[0]).toMatchObject(where);
  });

  it('counts columns in characters of the decoded text', () => {
    const error = refusal(() => parse('(;PB[李昂]\n;C[李] ?)'));
    expect(error.issues[0]).toMatchObject({ line: 2, column: 7 });
  });

  it('refuses more nodes than MAX_PLIES + 1 in one tree, counting variations', () => {
    const limits = { ...DEFAULT_LIMITS, maxPlies: 3 };
    expect(parse('(;GM[1];B[aa];W[bb];B[cc])', limits).trees[0].nodes).toBe(4);
    const error = refusal(() => parse('(;GM[1];B[aa](;W[bb];B[cc])(;W[dd]))', limits));
    expect(error.code).toBe('limit.plies');
    expect(error.issues[0]).toMatchObject({ line: 1, column: 29 });
    // Each tree of a collection is bounded by itself.
    expect(parse('(;GM[1];B[aa];W[bb];B[cc])(;GM[1];B[aa];W[bb];B[cc])', limits).trees).toHaveLength(2);
  });

  it('refuses variations nested deeper than MAX_VARIATION_DEPTH; a lone child tree is no variation', () => {
    const limits = { ...DEFAULT_LIMITS, maxVariationDepth: 1 };
    // Nested single trees continue the line: depth 0 however deep they nest.
    expect(parse('(;GM[1](;B[aa](;W[bb](;B[cc]))))', limits).trees).toHaveLength(1);
    expect(parse('(;GM[1](;B[aa])(;B[bb]))', limits).trees).toHaveLength(1);
    const error = refusal(() => parse('(;GM[1](;B[aa])(;B[bb](;W[cc])(;W[dd])))', limits));
    expect(error.code).toBe('limit.variation_depth');
    expect(error.issues[0]).toMatchObject({ column: 31 });
    expect(() => splitSgf(Buffer.from('(;GM[1](;B[aa])(;B[bb](;W[cc])(;W[dd])))'), limits)).toThrow(FormatError);
  });

  it('reads a game nested 20,000 trees deep without recursion', () => {
    const depth = 20_000;
    const text = '(;GM[1]' + '(;B[aa]'.repeat(depth) + ')'.repeat(depth) + ')';
    const collection = parse(text, { ...DEFAULT_LIMITS, maxPlies: depth });
    expect(collection.trees[0].nodes).toBe(depth + 1);
  });
});
