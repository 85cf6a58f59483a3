/**
 * The token the viewer reads and writes with. It is kept in this tab's sessionStorage — never in
 * localStorage, which every tab shares and which outlives the browser — and it goes out only as
 * `Authorization: Bearer` on requests to the origin that served the viewer (the archive itself).
 * This module imports nothing, so a test can load it alone in a page.
 */
const STORAGE_KEY = 'tabula.token';
/** Where viewers before tokens kept an API key for good: removed on sight. */
const LEGACY_KEY = 'tabula.apiKey';

/** The token while sessionStorage refuses to keep it (blocked storage): it lasts as long as the page. */
let memory = '';
const listeners = new Set<() => void>();

try {
  localStorage.removeItem(LEGACY_KEY);
} catch {
  // Storage refused: there is nothing kept there either.
}

/** The token held for this tab, or ''. */
export function token(): string {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? memory;
  } catch {
    return memory;
  }
}

/** Holds `value` (trimmed) for this tab; '' forgets the token. */
export function setToken(value: string): void {
  memory = value.trim();
  try {
    if (memory) sessionStorage.setItem(STORAGE_KEY, memory);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Kept in memory only.
  }
  for (const listener of listeners) listener();
}

export function forgetToken(): void {
  setToken('');
}

/** Calls `listener` whenever the token is set or forgotten; returns the way to stop. */
export function onTokenChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether `url` (absolute, or a path of this page's origin) names the origin that served the viewer. */
export function isOwnOrigin(url: string | URL): boolean {
  try {
    return new URL(url, location.origin).origin === location.origin;
  } catch {
    return false;
  }
}

/**
 * `request` made ready to leave: the token, when one is held, on a request to the viewer's own
 * origin; no Authorization at all on a request to any other origin, whoever set it.
 */
export function withToken(request: Request): Request {
  if (!isOwnOrigin(request.url)) {
    request.headers.delete('Authorization');
    return request;
  }
  const held = token();
  if (held) request.headers.set('Authorization', `Bearer ${held}`);
  return request;
}

/**
 * fetch() for an archive route the generated client does not cover (pictures, downloads): `path`
 * is taken relative to the viewer's origin, and the request carries the token by {@link withToken}'s
 * rule. Redirects are refused: the archive answers its routes without them.
 */
export async function fetchWithToken(path: string, init: RequestInit = {}): Promise<Response> {
  const request = withToken(new Request(new URL(path, location.origin), { redirect: 'error', ...init }));
  const response = await fetch(request);
  await noteAnswer(request, response);
  return response;
}

/** A 401 answer: the archive wants a token (`auth.required`) or refused the one sent (`auth.invalid`). */
export interface Refusal {
  readonly code: 'auth.required' | 'auth.invalid';
  readonly detail: string;
  /** A read (GET, HEAD) was refused: the page cannot show anything without a token. */
  readonly read: boolean;
}

const refusalListeners = new Set<(refusal: Refusal) => void>();

/** Calls `listener` with every 401 answer the archive gives the viewer; returns the way to stop. */
export function onRefusal(listener: (refusal: Refusal) => void): () => void {
  refusalListeners.add(listener);
  return () => refusalListeners.delete(listener);
}

/** Looks at an answer of the archive: a 401 is told to the listeners, and a token called invalid is forgotten. */
export async function noteAnswer(request: Request, response: Response): Promise<void> {
  if (response.status !== 401) return;
  let problem: { code?: unknown; detail?: unknown } = {};
  try {
    problem = (await response.clone().json()) as typeof problem;
  } catch {
    // Not problem+json: a 401 all the same.
  }
  const code = problem.code === 'auth.invalid' ? 'auth.invalid' : problem.code === 'auth.required' || problem.code === undefined ? 'auth.required' : null;
  if (code === null) return;
  const held = token();
  // Revoked, expired or mistyped: no use sending it again.
  if (code === 'auth.invalid' && held && request.headers.get('Authorization') === `Bearer ${held}`) forgetToken();
  const refusal: Refusal = { code, detail: typeof problem.detail === 'string' ? problem.detail : '', read: request.method === 'GET' || request.method === 'HEAD' };
  for (const listener of refusalListeners) listener(refusal);
}
