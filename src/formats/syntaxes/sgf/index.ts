export { parseSgf, splitSgf, peekRoot, peekRootProperty } from './syntax.js';
export type { SgfCollection, SgfGameTree, SgfNode, SgfProperty, SgfTreeRange, SgfValue } from './syntax.js';
export { resolveCharset } from './charset.js';
export type { SgfCharset } from './charset.js';
export { composeParts, escapeValue, findProperty, firstText, indexLetter, letterIndex, propertyValues, SGF_PLAYER_COLOURS, simpleText } from './values.js';
export { sgfTexts } from './texts.js';
