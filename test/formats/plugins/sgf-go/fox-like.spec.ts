import { readFileSync } from 'node:fs';
import { FormatReader } from '../../../../src/formats/format-reader.js';
import { DEFAULT_LIMITS } from '../../../../src/core/limits.js';
import { FORMAT_PLUGINS } from '../../../../src/formats/registry.js';
import { sgfGoPlugin } from '../../../../src/formats/plugins/sgf-go/plugin.js';

/*
 * What the Fox games of the shared real data show, shown again on games written for these tests in
 * the Fox client's shape (test/fixtures/written/fox-like, see its README): komi written in hundredths
 * (KM[650], KM[750]) beside komi in points (KM[7.5]), UTF-8 names with CA[UTF-8], and programs among
 * the players. Every expected value below is read by hand from the file named.
 */
const FOLDER = 'test/fixtures/written/fox-like/';
const bytesOf = (name: string) => readFileSync(FOLDER + name);
const options = { timeBudgetMs: 1000, limits: DEFAULT_LIMITS };
const analysis = async (name: string) => (await sgfGoPlugin.read({ bytes: bytesOf(name), filename: name }, options)).analysis!;

/** A player entry as the file gives it: no id, no points (Go SGF records none), the captures of the replay. */
const player = (seat: number, name: string, rating: string, captures: number, outcome: string) => ({
  seat,
  name,
  externalId: null,
  color: seat === 0 ? 'black' : 'white',
  rating,
  declaredPoints: null,
  points: null,
  captures,
  outcome,
});

describe('Go SGF in the Fox client\'s shape (games written for the tests)', () => {
  it('are claimed by the Go SGF plugin only', () => {
    for (const name of ['hundredths-650.sgf', 'hundredths-750.sgf', 'points-7.5.sgf']) {
      const claimants = FORMAT_PLUGINS.filter((plugin) => plugin.detect({ bytes: bytesOf(name) })).map((plugin) => plugin.id);
      expect([name, claimants]).toEqual([name, ['sgf-go']]);
    }
  });

  it('KM[650] is 6.5 written in hundredths; the UTF-8 names and ranks as written; a program is a player like any other', async () => {
    // PB[山间清风]BR[5段] PW[木鱼AI]WR[9段] KM[650] RE[B+R] DT[2024-03-02] RU[Chinese] GN[测试对局第1局];
    // 13 moves, the 13th B[rc] taking the white stone qc (its other neighbours pc, qb, qd are black).
    const a = await analysis('hundredths-650.sgf');
    expect(a.players).toEqual([player(0, '山间清风', '5段', 1, 'won'), player(1, '木鱼AI', '9段', 0, 'lost')]);
    expect(a.details).toMatchObject({
      komi: 6.5,
      komiText: '650',
      komiForm: 'hundredths',
      application: 'YuanYu',
      gameName: '测试对局第1局',
      ratings: { black: '5段', white: '9段' },
      charset: { encoding: 'utf-8', declared: 'UTF-8' },
      end: 'resignation',
      passes: 0,
      variations: 0,
    });
    expect(a.result).toBe('black wins by resignation');
    expect(a.moveCount).toBe(13);
    expect(a.replay.map((ply) => ply.move)).toEqual(['pd', 'dp', 'pq', 'dd', 'fq', 'qc', 'qd', 'fc', 'pc', 'cj', 'qb', 'jd', 'rc']);
    expect(a.replay.map((ply) => ply.captured.length)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(a.replay[12].captured).toEqual(['qc']);
    expect(a.facts).toMatchObject({ boardWidth: 19, boardHeight: 19, datePlayed: '2024-03-02', event: null, rules: 'Chinese' });
    expect(a.verdict).toEqual({ legal: true, consistent: true, problems: [] });
  });

  it('KM[750] is 7.5 written in hundredths; two programs; W+2.5 a win by the score', async () => {
    // PB[云海围棋]BR[9段] PW[Kestrel]WR[9段] KM[750] RE[W+2.5]; 14 moves, the 12th W[qr] taking the
    // black stone qq (its other neighbours pq, rq, qp are white).
    const a = await analysis('hundredths-750.sgf');
    expect(a.players).toEqual([player(0, '云海围棋', '9段', 0, 'lost'), player(1, 'Kestrel', '9段', 1, 'won')]);
    expect(a.details).toMatchObject({ komi: 7.5, komiText: '750', komiForm: 'hundredths', end: 'score', gameName: '程序对局 云海围棋 vs Kestrel' });
    expect(a.result).toBe('white wins by 2.5');
    expect(a.facts).toMatchObject({ datePlayed: '2024-03-09', margin: 2.5 });
    expect(a.moveCount).toBe(14);
    expect([a.replay[11].move, a.replay[11].captured]).toEqual(['qr', ['qq']]);
    expect(a.replay.filter((ply) => ply.captured.length > 0)).toHaveLength(1);
    expect(a.verdict.legal).toBe(true);
  });

  it('KM[7.5] is 7.5 written in points, as Fox also writes komi', async () => {
    // PB[北风吹]BR[3段] PW[白鹤亮翅]WR[2段] KM[7.5] RE[W+R]; 10 moves, no capture.
    const a = await analysis('points-7.5.sgf');
    expect(a.players).toEqual([player(0, '北风吹', '3段', 0, 'lost'), player(1, '白鹤亮翅', '2段', 0, 'won')]);
    expect(a.details).toMatchObject({ komi: 7.5, komiText: '7.5', komiForm: 'points', end: 'resignation' });
    expect(a.result).toBe('white wins by resignation');
    expect(a.moveCount).toBe(10);
    expect(a.facts.datePlayed).toBe('2024-03-16');
  });

  it('header and body of the UTF-8 file are byte ranges of it: the root node, and the moves after it', async () => {
    const bytes = bytesOf('hundredths-650.sgf');
    const record = await new FormatReader(FORMAT_PLUGINS).read({ bytes, filename: 'hundredths-650.sgf' }, options);
    expect(record).toMatchObject({ publisher: 'SGF', version: 'FF4-Go', family: 'go' });
    // The file's first seven lines, without the opening parenthesis; then the two lines of moves, without the closing one.
    expect(record.header).toBe(
      ';CA[UTF-8]AP[YuanYu]GM[1]FF[4]\nSZ[19]\nGN[测试对局第1局]\nDT[2024-03-02]\nPB[山间清风]BR[5段]\nPW[木鱼AI]WR[9段]\nKM[650]HA[0]RU[Chinese]RE[B+R]TM[600]TC[3]TT[30]',
    );
    expect(record.body).toBe('\n;B[pd];W[dp];B[pq];W[dd];B[fq];W[qc];B[qd];W[fc];B[pc];W[cj];B[qb]\n;W[jd];B[rc]');
    expect(bytes.subarray(record.spans.header!.start, record.spans.header!.end).toString('utf8')).toBe(record.header);
    expect(bytes.subarray(record.spans.body!.start, record.spans.body!.end).toString('utf8')).toBe(record.body);
  });

  it('regenerates KM[650] as KM[6.5], the names unchanged, to the same game', async () => {
    const regenerated = await sgfGoPlugin.regenerate({ bytes: bytesOf('hundredths-650.sgf') }, options);
    const text = regenerated.content.toString();
    expect(text).toContain('KM[6.5]');
    expect(text).not.toContain('KM[650]');
    expect(text).toContain('PB[山间清风]');
    expect(text).toContain('PW[木鱼AI]');
    const [before, after] = [await analysis('hundredths-650.sgf'), (await sgfGoPlugin.read({ bytes: Buffer.from(text) }, options)).analysis!];
    expect(after.details).toMatchObject({ komi: 6.5, komiText: '6.5', komiForm: 'points' });
    expect(after.players).toEqual(before.players);
    expect(after.replay).toEqual(before.replay);
  });
});
