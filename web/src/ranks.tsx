/**
 * The Go rank range a search keeps to (`rankMin`, `rankMax`: every player of a game within it, see
 * docs/ranks.md): two selects, from 30k through 1k, 1d … 9d and 1p … 9p, each "any" when left open.
 */

/** Every rank the selects offer, weakest first. */
export const RANKS: readonly string[] = [
  ...Array.from({ length: 30 }, (_, i) => `${30 - i}k`),
  ...Array.from({ length: 9 }, (_, i) => `${i + 1}d`),
  ...Array.from({ length: 9 }, (_, i) => `${i + 1}p`),
];

export interface RankRange {
  readonly rankMin: string;
  readonly rankMax: string;
}

/** The range the URL's query names ('' for an open end; anything not a rank offered is left open). */
export function rankRangeOf(params: URLSearchParams): RankRange {
  const rank = (name: string) => {
    const value = (params.get(name) ?? '').trim().toLowerCase();
    return RANKS.includes(value) ? value : '';
  };
  return { rankMin: rank('rankMin'), rankMax: rank('rankMax') };
}

/** The range as API query fields: only the ends given. */
export function rankQuery(range: RankRange): { rankMin?: string; rankMax?: string } {
  return { ...(range.rankMin ? { rankMin: range.rankMin } : {}), ...(range.rankMax ? { rankMax: range.rankMax } : {}) };
}

/** Writes the range's given ends into `params` (and drops the open ones). */
export function setRankParams(params: URLSearchParams, range: RankRange): URLSearchParams {
  for (const name of ['rankMin', 'rankMax'] as const) {
    if (range[name]) params.set(name, range[name]);
    else params.delete(name);
  }
  return params;
}

/**
 * The two selects. With `onChange` they are controlled (the explorer, the patterns page); without,
 * they are plain form fields named `rankMin` and `rankMax` (the games list's form).
 */
export function RankSelect({ range, onChange }: { range: RankRange; onChange?: (range: RankRange) => void }) {
  const select = (name: 'rankMin' | 'rankMax', label: string) => (
    <label>
      {label}
      <select
        name={name}
        onChange={onChange && ((event) => onChange({ ...range, [name]: (event.currentTarget as HTMLSelectElement).value }))}
      >
        <option value="" selected={range[name] === ''}>
          any
        </option>
        {RANKS.map((rank) => (
          <option value={rank} selected={range[name] === rank}>
            {rank}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <fieldset class="rank-range">
      <legend>Go ranks of both players</legend>
      {select('rankMin', 'From')}
      {select('rankMax', 'to')}
    </fieldset>
  );
}
