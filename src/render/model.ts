/** Reading the JSON details of replay rows into the plain values the position models use. */
import type { JsonValue } from '../formats/plugin.js';

export type JsonRecord = Readonly<Record<string, JsonValue>>;

export function recordOf(value: JsonValue | undefined): JsonRecord | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}

export function numberOr(value: JsonValue | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** `{x, y}` of a record with integer x and y, else null. */
export function pointOf(value: JsonRecord | undefined): { x: number; y: number } | null {
  return value && Number.isInteger(value.x) && Number.isInteger(value.y) ? { x: value.x as number, y: value.y as number } : null;
}

/** The `{x, y}` records of a JSON array, skipping anything else. */
export function pointList(value: JsonValue | undefined): { x: number; y: number }[] {
  if (!Array.isArray(value)) return [];
  return value.map((v) => pointOf(recordOf(v))).filter((p): p is { x: number; y: number } => p !== null);
}

/** `[a, b]` integer pairs of a JSON array (Dots cells as [row, col]), skipping anything else. */
export function pairList(value: JsonValue | undefined): [number, number][] {
  if (!Array.isArray(value)) return [];
  return value.filter((v): v is [number, number] => Array.isArray(v) && v.length === 2 && Number.isInteger(v[0]) && Number.isInteger(v[1]));
}

/** A matrix of integers (draughts board rows). */
export function matrixOf(value: JsonValue | undefined): number[][] | null {
  if (!Array.isArray(value) || !value.every((row) => Array.isArray(row) && row.every((c) => typeof c === 'number'))) return null;
  return value as number[][];
}
