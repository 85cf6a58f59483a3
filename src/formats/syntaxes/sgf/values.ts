import type { SgfNode, SgfProperty, SgfValue } from './syntax.js';

/*
 * Reading and writing property values, the same for every game: which values a node has, the two
 * halves of a composed value, SimpleText, the letters of point coordinates, escaping for writers.
 */

/** Every value of property `id` in the node (a property written twice counts with all its values). */
export function propertyValues(node: SgfNode, id: string): SgfValue[] {
  const values: SgfValue[] = [];
  for (const property of node.properties) if (property.id === id) values.push(...property.values);
  return values;
}

/** The node's first property `id`, or undefined. */
export function findProperty(node: SgfNode, id: string): SgfProperty | undefined {
  return node.properties.find((property) => property.id === id);
}

/** The first value of property `id` as text, or null when the node has none. */
export function firstText(node: SgfNode, id: string): string | null {
  return findProperty(node, id)?.values[0]?.text ?? null;
}

/** A composed value `a:b` as its two parts; null when the value has no unescaped colon. */
export function composeParts(value: SgfValue): [string, string] | null {
  return value.colon < 0 ? null : [value.text.slice(0, value.colon), value.text.slice(value.colon + 1)];
}

/** SimpleText: line breaks and other blanks become spaces; leading and trailing blanks go. */
export function simpleText(text: string): string {
  return text.replace(/\r\n|\n\r|[\r\n\t\v\f]/g, ' ').trim();
}

/** A coordinate letter as a number: `a`-`z` = 0-25, `A`-`Z` = 26-51 (FF[4]); -1 for anything else. */
export function letterIndex(char: string): number {
  const c = char.charCodeAt(0);
  if (c >= 97 && c <= 122) return c - 97;
  if (c >= 65 && c <= 90) return c - 65 + 26;
  return -1;
}

/** The letter of a coordinate 0-51. */
export function indexLetter(index: number): string {
  return String.fromCharCode(index < 26 ? 97 + index : 65 + index - 26);
}

/** A value's text escaped for writing between brackets: `]` and `\`, and `:` when `composed` parts are written. */
export function escapeValue(text: string, composed = false): string {
  return text.replace(composed ? /[\]\\:]/g : /[\]\\]/g, (c) => `\\${c}`);
}

/** SGF's two players by seat: black (B, PB) moves first, white (W, PW) second. */
export const SGF_PLAYER_COLOURS = ['black', 'white'] as const;
