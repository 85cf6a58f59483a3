import { makeTemplate } from '../src/database/pgdata-template.js';

// The build's last step: an empty PGlite data directory that a first start copies instead of running initdb.
const location = await makeTemplate();
console.log(`pgdata template: ${location}`);
