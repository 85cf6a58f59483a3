import type { BarsRecord } from './model.js';

/**
 * The file with every move number replaced by the one the replay derives, everything else (form,
 * order, layout, comments, the starting board) kept as uploaded. Moves that were not replayed keep
 * their numbers.
 */
export function regenerateBarsText(text: string, record: BarsRecord, regenerated: readonly (readonly number[] | null)[]): string {
  const replacements: { offset: number; length: number; value: string }[] = [];
  record.moves.forEach((move, index) => {
    const numbers = regenerated[index];
    if (!numbers) return;
    move.numbers.forEach((written, i) => replacements.push({ offset: written.token.offset, length: written.token.length, value: String(numbers[i]) }));
  });
  replacements.sort((a, b) => a.offset - b.offset);
  let out = '';
  let at = 0;
  for (const { offset, length, value } of replacements) {
    out += text.slice(at, offset) + value;
    at = offset + length;
  }
  return out + text.slice(at);
}
