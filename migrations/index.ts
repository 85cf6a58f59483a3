import { CreateArchive1763700000000 } from './1763700000000-CreateArchive.js';

/** Every migration, oldest first. Listed by hand so the same list serves the build and the tests. */
export const MIGRATIONS = [CreateArchive1763700000000];
