/**
 * A search answered page by page, as the search, pattern and position pages make theirs: the first
 * page asked for whenever the search (its key, the location's) changes, "More" asking for the next
 * with the cursor the archive hands out, and the results' section, which says which search it shows
 * once it shows it (`data-search`, for the tests) and the archive's words when it refuses one.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { problemText } from './api';

/** What the generated client answers: the page, or the problem and the response. */
export interface Answer<P> {
  readonly data?: P;
  readonly error?: unknown;
  readonly response?: Response;
}

export interface Paged<T> {
  /** The first page's whole answer (its totals, moves…); null while there is none. */
  readonly answer: unknown;
  readonly items: readonly T[];
  readonly next: string | null;
  readonly error: string;
  /** The search named is not the one shown yet. */
  readonly loading: boolean;
  readonly loadingMore: boolean;
  readonly more: () => Promise<void>;
  readonly setError: (error: string) => void;
}

/**
 * The pages of the search `key` names (none while it is null): `first` asks for its first page,
 * `following` for the page a cursor continues with (the cursor carries the search: it goes alone).
 */
export function usePagedSearch<T, P extends { readonly items: T[]; readonly next: string | null }>(
  key: string | null,
  first: () => Promise<Answer<P>>,
  following: (cursor: string) => Promise<Answer<P>>,
): Paged<T> & { readonly answer: P | null } {
  const [answer, setAnswer] = useState<P | null>(null);
  const [items, setItems] = useState<T[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'done' | 'more'>('idle');
  const [error, setError] = useState('');
  // The search the results shown belong to: a new search renders once with the results of the one
  // before (the effect that starts it runs after that render), and must not pass them off as its own.
  const [shownKey, setShownKey] = useState<string | null>(null);

  useEffect(() => {
    if (key === null) return;
    let current = true;
    setState('loading');
    setError('');
    first().then(({ data, error, response }) => {
      if (!current) return;
      setAnswer(data ?? null);
      setItems(data?.items ?? []);
      setNext(data?.next ?? null);
      if (!data) setError(problemText(error, response));
      setShownKey(key);
      setState('done');
    });
    return () => {
      current = false;
    };
  }, [key]);

  const more = async () => {
    if (!next) return;
    setState('more');
    const { data, error, response } = await following(next);
    if (data) {
      setItems((shown) => [...shown, ...data.items]);
      setNext(data.next);
    } else setError(problemText(error, response));
    setState('done');
  };

  return { answer, items, next, error, setError, more, loading: key !== null && (state === 'loading' || shownKey !== key), loadingMore: state === 'more' };
}

/**
 * The archive's refusal, if any, then the results of the search `search` (nothing while it is null)
 * under `heading`, with "More" while there is a next page.
 */
export function PagedResults({ id, search, heading, headingClass, paged, children }: { id: string; search: string | null; heading: ComponentChildren; headingClass?: string; paged: Paged<unknown>; children: ComponentChildren }) {
  return (
    <>
      {paged.error && (
        <p class="problem" role="alert">
          {paged.error}
        </p>
      )}
      {search !== null && (
        <section aria-labelledby={id} aria-busy={paged.loading} data-search={paged.loading ? undefined : search}>
          <h2 id={id} class={headingClass}>
            {heading}
          </h2>
          {children}
          {paged.next && (
            <button type="button" onClick={paged.more} disabled={paged.loadingMore}>
              {paged.loadingMore ? 'Loading…' : 'More'}
            </button>
          )}
        </section>
      )}
    </>
  );
}

/**
 * Resets a search form to the search the URL names (`reset`) whenever that search (`key`) changes —
 * not after the first render, whose form is already the URL's: the effect runs after the page is
 * drawn, and would undo a choice made in between.
 */
export function useFormFollowsSearch(key: string | null, reset: () => void): void {
  const formKey = useRef(key);
  useEffect(() => {
    if (formKey.current === key) return;
    formKey.current = key;
    reset();
  }, [key]);
}
