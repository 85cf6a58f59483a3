import { Transform } from 'class-transformer';

/** A query parameter read as a boolean: `true` and `false` become booleans; anything else is left for validation to refuse. */
export const QueryBoolean = (): PropertyDecorator => Transform(({ value }) => (value === 'true' ? true : value === 'false' ? false : value));
