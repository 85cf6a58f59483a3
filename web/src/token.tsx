/**
 * The token on the page: the form that asks for one (when the archive answers 401, or an upload
 * needs one), whether one is held, and the archive's pictures, which an <img> alone cannot ask for
 * with a token.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { problemText } from './api';
import { fetchWithToken, onTokenChange, setToken, token } from './credentials';
import type { Refusal } from './credentials';

/** Whether a token is held for this tab, kept up to date. */
export function useHeldToken(): boolean {
  const [held, setHeld] = useState(() => token() !== '');
  useEffect(() => onTokenChange(() => setHeld(token() !== '')), []);
  return held;
}

/** A field for a token and its button; `onSaved` runs once the token is held. */
export function TokenForm({ onSaved }: { onSaved?: () => void }) {
  const [value, setValue] = useState('');
  const note = useId();
  const submit = (event: Event) => {
    event.preventDefault();
    if (!value.trim()) return;
    setToken(value);
    setValue('');
    onSaved?.();
  };
  return (
    <form class="token-form" onSubmit={submit}>
      <label>
        Token
        <input type="password" name="token" autocomplete="off" spellcheck={false} required value={value} aria-describedby={note} onInput={(event) => setValue((event.currentTarget as HTMLInputElement).value)} />
      </label>
      <button type="submit">Use token</button>
      <p id={note} class="muted">
        Kept for this tab only: closing the tab forgets it. It is sent to this archive and nowhere else.
      </p>
    </form>
  );
}

/**
 * What the page shows instead of its content while the archive wants a token to read. `onSaved`
 * runs once a token is held, or when the user goes on without one after a refusal.
 */
export function TokenGate({ refusal, onSaved }: { refusal: Refusal; onSaved: () => void }) {
  return (
    <section class="token-gate" aria-labelledby="token-gate-title">
      <h1 id="token-gate-title">{refusal.code === 'auth.invalid' ? 'The token was refused' : 'A token is needed'}</h1>
      <div role="alert">
        <p>{refusal.code === 'auth.invalid' ? 'The archive did not accept the token held for this tab, and the viewer has forgotten it.' : 'This archive shows its games only to holders of a token.'}</p>
        {refusal.detail && <p class="muted">The archive answered: {refusal.detail}</p>}
      </div>
      <TokenForm onSaved={onSaved} />
      {refusal.code === 'auth.invalid' && (
        <p>
          <button type="button" class="link" onClick={onSaved}>
            Go on without a token
          </button>{' '}
          <span class="muted">(when the archive lets anyone read)</span>
        </p>
      )}
    </section>
  );
}

interface PictureProps {
  readonly src: string;
  readonly alt: string;
  readonly class?: string;
  readonly width?: number;
  readonly height?: number;
  readonly loading?: 'lazy' | 'eager';
  readonly 'data-ply'?: number;
}

/**
 * A picture the archive draws (`src` a path of its routes): a plain <img> while no token is held;
 * with a token, fetched with it and shown from memory (an <img> sends no Authorization).
 */
export function ArchiveImage({ src, ...rest }: PictureProps) {
  const held = useHeldToken();
  const [loaded, setLoaded] = useState('');
  const shown = useRef('');
  useEffect(
    () => () => {
      if (shown.current) URL.revokeObjectURL(shown.current);
    },
    [],
  );
  useEffect(() => {
    if (!held) return;
    let current = true;
    fetchWithToken(src)
      .then((response) => (response.ok ? response.blob() : null))
      .then(
        (blob) => {
          if (!current || !blob) return;
          const before = shown.current;
          shown.current = URL.createObjectURL(blob);
          setLoaded(shown.current);
          if (before) URL.revokeObjectURL(before);
        },
        () => undefined,
      );
    return () => {
      current = false;
    };
  }, [src, held]);
  return <img {...rest} src={held ? loaded || undefined : src} data-src={src} />;
}

/**
 * Downloads an archive route: left to the browser (the link's own behaviour) while no token is held;
 * with one, fetched with it and saved under the name the archive gives. Returns the problem's words
 * when the archive refused.
 */
export async function downloadWithToken(event: MouseEvent, path: string, fallbackName: string): Promise<string | undefined> {
  if (!token()) return undefined;
  event.preventDefault();
  const response = await fetchWithToken(path).catch(() => null);
  if (!response) return problemText(undefined);
  if (!response.ok) return problemText(await response.json().catch(() => undefined), response);
  saveBlob(await response.blob(), attachmentName(response.headers.get('content-disposition')) ?? fallbackName);
  return undefined;
}

/** Hands `blob` to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The file name of a `Content-Disposition: attachment` header (RFC 6266: `filename*` first). */
export function attachmentName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1]);
    } catch {
      // Fall through to the plain form.
    }
  }
  return /filename\s*=\s*"([^"]*)"/i.exec(header)?.[1] ?? /filename\s*=\s*([^;]+)/i.exec(header)?.[1]?.trim();
}
