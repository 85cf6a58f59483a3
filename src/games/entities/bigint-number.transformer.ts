import type { ValueTransformer } from 'typeorm';

/** `pg` returns int8 as a string; ids stay far below 2^53, so numbers are safe and friendlier to clients. */
export const bigintAsNumber: ValueTransformer = {
  to: (value: number | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
