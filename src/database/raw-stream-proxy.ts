import type { PGlite } from '@electric-sql/pglite';

/**
 * PGlite with its `execProtocolRawStream` replaced (how the socket server reads every answer): every
 * other method is PGlite's own, bound to it once (the socket server calls several a statement).
 */
export function withRawStream(db: PGlite, execProtocolRawStream: PGlite['execProtocolRawStream']): PGlite {
  const bound = new Map<PropertyKey, unknown>([['execProtocolRawStream', execProtocolRawStream]]);
  return new Proxy(db, {
    get: (target, key) => {
      if (bound.has(key)) return bound.get(key);
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      const method = value.bind(target);
      bound.set(key, method);
      return method;
    },
  });
}
