/**
 * The viewer's shell: a header, and the page the location's hash names. Hash routes (`#/games/12`)
 * keep every viewer path off the API's paths: the server serves only `/` and `/assets/`.
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './api';
import { forgetToken, onRefusal } from './credentials';
import type { Refusal } from './credentials';
import { GamePage } from './game';
import { PatternsPage } from './patterns';
import { DraughtsPatternsPage } from './draughts-patterns';
import { PlayerPage } from './player';
import { PositionsPage } from './positions';
import { rankRangeOf } from './ranks';
import { SearchPage } from './search';
import { TokenGate, useHeldToken } from './token';
import { UploadPage } from './upload';
import './style.css';

interface Route {
  readonly page: 'search' | 'game' | 'player' | 'patterns' | 'positions' | 'upload' | 'missing';
  readonly id?: number;
  readonly key?: string;
  readonly query: URLSearchParams;
}

function parseHash(hash: string): Route {
  const [path, search = ''] = hash.replace(/^#/, '').split('?', 2);
  const query = new URLSearchParams(search);
  const parts = path.split('/').filter(Boolean);
  if (parts.length === 0) return { page: 'search', query };
  if (parts[0] === 'games' && parts.length === 2 && /^[1-9]\d*$/.test(parts[1])) return { page: 'game', id: Number(parts[1]), query };
  if (parts[0] === 'players' && parts.length === 2) return { page: 'player', key: safeDecode(parts[1]), query };
  if (parts[0] === 'upload' && parts.length === 1) return { page: 'upload', query };
  if (parts[0] === 'patterns' && parts.length === 1) return { page: 'patterns', query };
  if (parts[0] === 'positions' && parts.length === 1) return { page: 'positions', query };
  return { page: 'missing', query };
}

/** `?ply=n` of a game's route: the ply to open it at. */
function plyOf(query: URLSearchParams): number | undefined {
  const ply = query.get('ply');
  return ply !== null && /^\d{1,6}$/.test(ply) ? Number(ply) : undefined;
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

function App() {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseHash(location.hash));
    addEventListener('hashchange', follow);
    return () => removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => window.scrollTo(0, 0), [route.page, route.id, route.key]);
  // A read the archive refused for want of a (good) token: the page gives way to the token form.
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  useEffect(() => onRefusal((refused) => refused.read && setRefusal(refused)), []);
  // Bumped when the token changes by the user's hand: the page is made again, asking the archive anew.
  const [session, setSession] = useState(0);
  const held = useHeldToken();
  const restart = () => {
    setRefusal(null);
    setSession((n) => n + 1);
  };
  return (
    <>
      <header class="top">
        <a class="brand" href="#/">
          Tabula
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={route.page === 'search' ? 'page' : undefined}>
            Search
          </a>
          <a href="#/patterns" aria-current={route.page === 'patterns' ? 'page' : undefined}>
            Patterns
          </a>
          <a href="#/positions" aria-current={route.page === 'positions' ? 'page' : undefined}>
            Positions
          </a>
          <a href="#/upload" aria-current={route.page === 'upload' ? 'page' : undefined}>
            Upload
          </a>
          <a href="/docs">API</a>
        </nav>
        {held && (
          <button
            type="button"
            class="sign-out"
            onClick={() => {
              forgetToken();
              restart();
            }}
          >
            Sign out
          </button>
        )}
      </header>
      <main key={session}>
        {refusal && <TokenGate refusal={refusal} onSaved={restart} />}
        {!refusal && route.page === 'search' && <SearchPage query={route.query} />}
        {!refusal && route.page === 'game' && <GamePage key={`${route.id}:${route.query.get('ply') ?? ''}`} id={route.id!} startPly={plyOf(route.query)} range={rankRangeOf(route.query)} />}
        {!refusal && route.page === 'player' && <PlayerPage key={route.key} playerKey={route.key!} />}
        {!refusal && route.page === 'patterns' && (route.query.get('family') === 'checkers' ? <DraughtsPatternsPage query={route.query} /> : <PatternsPage query={route.query} />)}
        {!refusal && route.page === 'positions' && <PositionsPage query={route.query} />}
        {!refusal && route.page === 'upload' && <UploadPage />}
        {!refusal && route.page === 'missing' && (
          <p class="problem" role="alert">
            No such page in the viewer. <a href="#/">Search the games</a>.
          </p>
        )}
      </main>
    </>
  );
}

render(<App />, document.getElementById('app')!);
