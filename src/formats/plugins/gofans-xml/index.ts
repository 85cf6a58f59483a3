export { gofansXmlPlugin, GOFANS_FORMATS, looksLikeXml } from './plugin.js';
export { interpretGoFans, readStandardDocument, standardDocument } from './import-procedure.js';
export { STANDARD_SCHEMA, GOFANS_SCHEMAS, GOFANS_VERSIONS } from './schemas.js';
