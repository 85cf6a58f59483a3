/**
 * A game: the board after the current ply (the archive's SVG picture), the moves in the usual
 * notation, stepping by buttons, arrow keys and a slider, the verdict with its problems at their
 * plies, the players (linking to their statistics) and the downloads.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { boardUrl, playerKey, playersText, problemText } from './api';
import { exportGame, getGame, listFormats, replayGame, setGameTags } from './generated/sdk.gen';
import type { FormatDto, GameDto, PlyDto, ProblemDto, WrittenTextDto } from './generated/types.gen';
import { familyName } from './search';
import { Explorer } from './explorer';
import { positionsHashOfGame } from './positions';
import { rankQuery, setRankParams } from './ranks';
import type { RankRange } from './ranks';
import { Relatives } from './relatives';
import { ArchiveImage, attachmentName, downloadWithToken, saveBlob } from './token';
import type { GoPlyDetails } from '../../src/formats/families/go/ply-details.js';

/** `range`: the Go rank range the explorer keeps to, from the hash (`#/games/12?ply=30&rankMin=5d`). */
export function GamePage({ id, startPly, range }: { id: number; startPly?: number; range: RankRange }) {
  const [game, setGame] = useState<GameDto | null>(null);
  const [plies, setPlies] = useState<PlyDto[] | null>(null);
  const [texts, setTexts] = useState<WrittenTextDto[]>([]);
  const [ply, setPly] = useState(0);
  const [error, setError] = useState('');

  useEffect(() => {
    getGame({ path: { id } }).then(({ data, error, response }) => {
      if (!data) return setError(problemText(error, response));
      setGame(data);
      if (data.status !== 'indexed') return;
      replayGame({ path: { id } }).then(({ data: replay, error, response }) => {
        if (!replay) return setError(problemText(error, response));
        setPlies(replay.plies);
        setTexts(replay.texts);
        // A game opens at its final position, as the board picture's default does, unless a ply is named.
        setPly(startPly !== undefined && startPly <= replay.plies.length ? startPly : replay.plies.length);
      });
    });
  }, [id]);

  if (error && !game) {
    return (
      <p class="problem" role="alert">
        {error}
      </p>
    );
  }
  if (!game) return <p aria-busy="true">Loading game {id}…</p>;
  return (
    <article class="game">
      <h1>{playersText(game.players)}</h1>
      <p class="muted">
        Game {game.id} · {familyName(game.family)}
        {game.publisher ? ` · ${game.publisher} ${game.version ?? ''}` : ''}
        {game.result ? ` · ${game.result}` : ''}
      </p>
      <p class="owner">
        {game.owner === null ? (
          'no owner'
        ) : (
          <>
            Owner: <a href={`#/?owner=${encodeURIComponent(game.owner)}`}>{game.owner}</a>
          </>
        )}
      </p>
      <Tags game={game} onSaved={(tags) => setGame({ ...game, tags })} />
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
      <div class="game-layout">
        <div class="board-column">
          {plies ? <Stepper game={game} plies={plies} ply={ply} setPly={setPly} commented={new Set(texts.map((text) => text.ply))} /> : game.status === 'indexed' && <p aria-busy="true">Replaying…</p>}
          {plies && <Comments texts={texts} ply={ply} />}
          {game.status !== 'indexed' && <p>This file is stored but not indexed{game.statusReason ? `: ${game.statusReason}` : ''}. There is no board to show.</p>}
        </div>
        <div class="side-column">
          {plies && (
            <Explorer
              id={game.id}
              ply={ply}
              edit={withRanks(positionsHashOfGame(game, plies, ply), range)}
              family={game.family}
              range={range}
              onRange={(chosen) => {
                location.hash = `#/games/${game.id}?${setRankParams(new URLSearchParams({ ply: String(ply) }), chosen)}`;
              }}
            />
          )}
          <Relatives id={game.id} />
          <Players game={game} />
          <Facts game={game} />
          <Verdict game={game} onPly={plies ? setPly : undefined} />
          <Downloads game={game} />
        </div>
      </div>
    </article>
  );
}

/** The position editor's link keeps the explorer's rank range. */
function withRanks(hash: string | null, range: RankRange): string | null {
  const ranks = new URLSearchParams(rankQuery(range));
  return hash === null || ranks.size === 0 ? hash : `${hash}&${ranks}`;
}

/** What the file writes at the current ply: its comments there (at the start, also the game's own texts). */
function Comments({ texts, ply }: { texts: WrittenTextDto[]; ply: number }) {
  const here = texts.filter((text) => text.ply === ply);
  if (here.length === 0) return null;
  return (
    <section class="comments" aria-label={ply === 0 ? 'Comments on the game' : `Comments at ply ${ply}`} aria-live="polite">
      {here.map((text) => (
        <p class="comment">{text.text}</p>
      ))}
    </section>
  );
}

function Stepper({ game, plies, ply, setPly, commented }: { game: GameDto; plies: PlyDto[]; ply: number; setPly: (ply: number) => void; commented: ReadonlySet<number> }) {
  const last = plies.length;
  const go = (to: number) => setPly(Math.max(0, Math.min(last, to)));
  const list = useRef<HTMLOListElement>(null);
  const flagged = problemsByPly(game.verdict?.problems ?? []);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // Fields keep their keys (the slider steps by itself with them).
      const target = event.target as HTMLElement | null;
      if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
      const to = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last }[event.key];
      if (to === undefined) return;
      event.preventDefault();
      go(to);
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [ply, last]);

  // The current move stays visible in the list, without scrolling the page.
  useEffect(() => {
    const box = list.current;
    const item = box?.querySelector<HTMLElement>('[aria-current="step"]');
    if (!box || !item) return;
    if (item.offsetTop < box.scrollTop) box.scrollTop = item.offsetTop;
    else if (item.offsetTop + item.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = item.offsetTop + item.offsetHeight - box.clientHeight;
  }, [ply]);

  const current = ply > 0 ? plies[ply - 1] : null;
  return (
    <>
      <figure class="board">
        <ArchiveImage
          src={boardUrl(game.id, { ply, size: 480 })}
          width={480}
          alt={`Board of game ${game.id} after ply ${ply} of ${last}${current ? `, last move ${current.move}` : ''}`}
          data-ply={ply}
        />
        <figcaption aria-live="polite">
          {ply === 0 ? 'Start' : `Ply ${ply} of ${last}: ${moveLabel(game, current!)}`}
          {current && sgfLetters(current) ? ` (SGF ${sgfLetters(current)})` : ''}
          {current && current.captured.length > 0 ? ` · took ${current.captured.join(' ')}` : ''}
        </figcaption>
      </figure>
      <div class="stepper" role="group" aria-label="Step through the game">
        <button type="button" onClick={() => go(0)} disabled={ply === 0} aria-label="First position" title="First (Home)">
          « First
        </button>
        <button type="button" onClick={() => go(ply - 1)} disabled={ply === 0} aria-label="Previous move" title="Previous (←)">
          ‹ Prev
        </button>
        <button type="button" onClick={() => go(ply + 1)} disabled={ply === last} aria-label="Next move" title="Next (→)">
          Next ›
        </button>
        <button type="button" onClick={() => go(last)} disabled={ply === last} aria-label="Last position" title="Last (End)">
          Last »
        </button>
      </div>
      <label class="slider">
        <span class="visually-hidden">Ply</span>
        <input type="range" min={0} max={last} value={ply} onInput={(event) => go(Number((event.currentTarget as HTMLInputElement).value))} aria-valuetext={`ply ${ply} of ${last}`} />
      </label>
      <ol class="moves" ref={list} aria-label="Moves">
        <li>
          <button type="button" class="move" onClick={() => go(0)} aria-current={ply === 0 ? 'step' : undefined}>
            start
          </button>
        </li>
        {plies.map((p) => {
          const problems = flagged.get(p.ply);
          return (
            <li>
              <button
                type="button"
                class={`move${problems ? ' flagged' : ''}`}
                onClick={() => go(p.ply)}
                aria-current={ply === p.ply ? 'step' : undefined}
                title={[sgfLetters(p) && `SGF ${sgfLetters(p)}`, ...(problems ?? []).map((problem) => problem.message)].filter(Boolean).join('\n') || undefined}
              >
                <span class="ply-number">{p.ply}.</span> {moveLabel(game, p)}
                {commented.has(p.ply) && (
                  <span class="commented" title="commented">
                    {' '}
                    ✎<span class="visually-hidden"> (commented)</span>
                  </span>
                )}
                {problems && <span class="visually-hidden"> (problem: {problems.map((problem) => problem.message).join('; ')})</span>}
              </button>
            </li>
          );
        })}
      </ol>
    </>
  );
}

/**
 * A ply as players write it, with who played it when the file says. Go plies carry the usual
 * coordinates (`Q16`) beside the format's own notation (SGF's letters): the usual ones are shown.
 */
function moveLabel(game: GameDto, ply: PlyDto): string {
  const player = ply.player === null ? undefined : game.players.find((p) => p.seat === ply.player);
  const who = player?.color ?? player?.name;
  const point = goDetails(ply)?.point;
  const move = typeof point === 'string' && point ? point : ply.move;
  return who && game.family !== 'checkers' ? `${colourMark(who)} ${move}` : move;
}

/** A ply's details as the Go family writes them (a ply of another family has none of these fields). */
function goDetails(ply: PlyDto): Partial<GoPlyDetails> | undefined {
  return ply.details as Partial<GoPlyDetails> | undefined;
}

/** The move in SGF's letters, for Go plies that carry them. */
function sgfLetters(ply: PlyDto): string | undefined {
  const letters = goDetails(ply)?.sgf;
  return typeof letters === 'string' && letters ? letters : undefined;
}

function colourMark(colour: string): string {
  const known: Record<string, string> = { black: '●', white: '○' };
  return known[colour.toLowerCase()] ?? colour;
}

function problemsByPly(problems: readonly ProblemDto[]): Map<number, ProblemDto[]> {
  const byPly = new Map<number, ProblemDto[]>();
  for (const problem of problems) {
    if (problem.ply === null) continue;
    byPly.set(problem.ply, [...(byPly.get(problem.ply) ?? []), problem]);
  }
  return byPly;
}

function Players({ game }: { game: GameDto }) {
  if (game.players.length === 0) return null;
  return (
    <section>
      <h2>Players</h2>
      <ul class="players-list">
        {game.players.map((player) => (
          <li>
            {player.name ? <a href={`#/players/${encodeURIComponent(playerKey(player.name))}`}>{player.name}</a> : <span>{player.color ?? `seat ${player.seat}`}</span>}
            {player.color && player.name ? <span class="muted"> ({player.color})</span> : null}
            {player.rating ? <span class="muted"> {player.rating}</span> : null}
            {player.outcome ? <span class={`outcome ${player.outcome}`}> {player.outcome}</span> : null}
            {player.points !== null ? <span class="muted"> · {player.points} points</span> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Facts({ game }: { game: GameDto }) {
  const facts = game.facts;
  const rows: [string, string | number | null | undefined][] = [
    ['Result', game.result],
    ['Ending', facts?.ending],
    ['Played', facts?.datePlayed],
    ['Event', facts?.event],
    ['Rules', facts?.rules],
    ['Board', facts?.boardWidth ? (facts.boardWidth === facts.boardHeight ? `${facts.boardWidth}×${facts.boardWidth}` : `${facts.boardWidth}×${facts.boardHeight}`) : null],
    ['Moves', game.moveCount],
    ['Signature', facts?.signature],
    ['File', game.filename],
    ['Uploaded', new Date(game.uploadedAt).toLocaleString()],
  ];
  return (
    <section>
      <h2>Game</h2>
      <dl class="facts">
        {rows
          .filter(([, value]) => value !== null && value !== undefined && value !== '')
          .map(([name, value]) => (
            <>
              <dt>{name}</dt>
              <dd>{value}</dd>
            </>
          ))}
      </dl>
    </section>
  );
}

function Verdict({ game, onPly }: { game: GameDto; onPly?: (ply: number) => void }) {
  const verdict = game.verdict;
  if (!verdict) return null;
  const good = verdict.legal && verdict.consistent;
  return (
    <section class="verdict">
      <h2>Verdict</h2>
      <p class={good ? 'ok' : 'warn'}>
        {verdict.legal ? 'Every move is legal' : 'Some moves break the rules'}; {verdict.consistent ? "the file's own results agree with the replay." : "the file's own results differ from the replay."}
      </p>
      {verdict.problems.length > 0 && (
        <ul class="problems">
          {verdict.problems.map((problem) => (
            <li>
              {problem.ply !== null && onPly ? (
                <button type="button" class="link" onClick={() => onPly(problem.ply!)}>
                  ply {problem.ply}
                </button>
              ) : problem.ply !== null ? (
                `ply ${problem.ply}`
              ) : null}
              {problem.ply !== null ? ': ' : ''}
              {problem.message} <code>{problem.code}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Downloads({ game }: { game: GameDto }) {
  const [formats, setFormats] = useState<FormatDto[]>([]);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState('');
  useEffect(() => {
    if (game.status !== 'indexed' || game.family === null) return;
    listFormats().then(({ data }) => setFormats((data?.formats ?? []).filter((f) => f.family === game.family && !(f.publisher === game.publisher && f.version === game.version))));
  }, [game.id]);

  const convert = async (format: FormatDto) => {
    const name = `${format.publisher}/${format.version}`;
    setBusy(name);
    setError('');
    const { data, error, response } = await exportGame({ path: { id: game.id }, query: { format: name }, parseAs: 'blob' });
    setBusy('');
    if (!(data instanceof Blob)) return setError(`${format.title}: ${problemText(error, response)}`);
    saveBlob(data, attachmentName(response.headers.get('content-disposition')) ?? `game-${game.id}${format.extensions[0] ?? ''}`);
  };
  // With a token, the links' downloads are fetched with it (a plain link would send none).
  const fetched = (path: string, name: string) => (event: MouseEvent) => {
    setError('');
    downloadWithToken(event, path, name).then((problem) => problem && setError(problem));
  };

  return (
    <section>
      <h2>Download</h2>
      <ul class="downloads">
        <li>
          <a href={`/games/${game.id}/raw`} download onClick={fetched(`/games/${game.id}/raw`, game.filename ?? `game-${game.id}`)}>
            The file as uploaded
          </a>{' '}
          <span class="muted">({game.size} bytes)</span>
        </li>
        {game.status === 'indexed' && (
          <li>
            <a href={`/games/${game.id}/regenerated`} download onClick={fetched(`/games/${game.id}/regenerated`, game.filename ?? `game-${game.id}`)}>
              Regenerated
            </a>{' '}
            <span class="muted">(cached results re-computed)</span>
          </li>
        )}
        {formats.map((format) => (
          <li>
            <button type="button" class="link" onClick={() => convert(format)} disabled={busy !== ''}>
              As {format.title}
            </button>
            {busy === `${format.publisher}/${format.version}` ? ' …' : ''}
          </li>
        ))}
      </ul>
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/**
 * The owner's tags on the game, each a link to the games that have it, and a small editor: the
 * whole list, comma-separated. A save without a token (or with another club's) is refused by the
 * archive, and the page says why.
 */
function Tags({ game, onSaved }: { game: GameDto; onSaved: (tags: string[]) => void }) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState('');
  const save = async (event: Event) => {
    event.preventDefault();
    const text = String(new FormData(event.currentTarget as HTMLFormElement).get('tags') ?? '');
    const tags = text.split(',').map((tag) => tag.trim()).filter((tag) => tag !== '');
    const { data, error: refused, response } = await setGameTags({ path: { id: game.id }, body: tags });
    if (!data) {
      setError(problemText(refused, response));
      return;
    }
    setError('');
    setEditing(false);
    onSaved(data.tags);
  };
  return (
    <div class="tags">
      Tags:{' '}
      {game.tags.length === 0 ? <span class="muted">none</span> : game.tags.map((tag) => <a href={`#/?tags=${encodeURIComponent(tag)}`}>#{tag} </a>)}
      {editing ? (
        <form onSubmit={save}>
          <label>
            Tags, comma-separated <input name="tags" defaultValue={game.tags.join(', ')} autocomplete="off" />
          </label>
          <button type="submit">Save tags</button>
          <button type="button" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </form>
      ) : (
        <button type="button" onClick={() => setEditing(true)}>
          Edit tags
        </button>
      )}
      {error && (
        <p class="problem" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
