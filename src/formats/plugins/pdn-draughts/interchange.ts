import { FormatError, doesNotFit } from '../../../core/errors.js';
import {
  CheckersInterchange,
  CheckersLine,
  CheckersMove,
  interchangeMove,
  notReplayable,
  replayInterchange,
  setupOf,
} from '../../families/checkers/interchange.js';
import type { CheckersDate } from '../../families/checkers/interchange.js';
import type { Line, MoveNode, PdnGame } from './model.js';
import { readMoveToken, writeFen } from './notation.js';
import { LineToWrite, writeMove, writePdn } from './regenerate.js';
import { recordedDecision, replayPdn, resultText } from './replay.js';
import { RUSSIAN_GAME_TYPE, gameSetup, known, otherVariant, rating, readDateParts } from './setup.js';

/** Tags the model holds in fields of its own; every other tag travels in `other` under its name. */
const MODELLED_TAGS: ReadonlySet<string> = new Set(['Event', 'Site', 'Date', 'Round', 'White', 'Black', 'WhiteRating', 'BlackRating', 'Result', 'FEN', 'GameType']);

const TAG_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
const STRENGTH = /^[!?]{1,2}$/;
const NAG = /^\$[0-9]+$/;

/**
 * A PDN game as a game of the model: players, ratings, event, site, round and date from the tags
 * (a value the model cannot read, such as a date in no known form, stays in `other` as written),
 * the FEN as the setup, every move of the main line and the variations by its squares (the landings
 * of a capture written by its ends found by the replay), comments, NAGs and strength marks, and the
 * result the record states. A game another variant's, or one whose replay stops, is refused.
 */
export function pdnToInterchange(game: PdnGame, text: string): CheckersInterchange {
  const why = otherVariant(game);
  if (why !== null) throw new FormatError(`cannot convert: ${why}`, [], 422, 'export.unsupported');
  const setup = gameSetup(game, text);
  const { analysis, resolved } = replayPdn(game, setup, text);
  if (!analysis.verdict.legal) throw notReplayable(analysis.verdict.problems);
  const tag = (name: string): string | undefined => game.tags.find((t) => t.name === name)?.value;
  const lineOf = (line: Line): CheckersLine => ({
    comments: [...line.comments],
    moves: line.moves.map((node) =>
      interchangeMove(resolved.get(node)!, { annotations: annotationsOf(node), comments: [...node.comments], variations: node.variations.map(lineOf) }),
    ),
  });
  const dateTag = tag('Date');
  const date = dateTag === undefined ? null : readDateParts(dateTag);
  const dateKnown = date !== null && (date.year !== null || date.month !== null || date.day !== null);
  // A Date or rating the model cannot read is kept as written rather than lost.
  const unread = ({ name, value }: { name: string; value: string }): boolean =>
    known(value) !== null && ((name === 'Date' && !dateKnown) || (/^(?:White|Black)Rating$/.test(name) && rating(value) === null));
  return {
    family: 'checkers',
    boardSize: 8,
    setup: setupOf(setup.start),
    players: [
      { colour: 'white', name: setup.names.white, externalId: null, rating: rating(tag('WhiteRating')) },
      { colour: 'black', name: setup.names.black, externalId: null, rating: rating(tag('BlackRating')) },
    ],
    main: lineOf(game.main),
    result: recordedDecision(tag('Result'), game.terminator?.text),
    date: dateKnown ? date : null,
    event: known(tag('Event')),
    site: known(tag('Site')),
    round: known(tag('Round')),
    other: game.tags.filter((t) => !MODELLED_TAGS.has(t.name) || unread(t)).map(({ name, value }) => ({ name, value })),
  };
}

/** The strength mark glued to the move (`22x13!`) and the NAGs after it, as written. */
function annotationsOf(node: MoveNode): string[] {
  const written = readMoveToken(node.text);
  const strength = 'strength' in written && written.strength !== null ? [written.strength] : [];
  return [...strength, ...node.nags];
}

/**
 * A game of the model written as PDN with the plugin's own writer: the tags Event, Site, Date
 * (`YYYY.MM.DD`, `?` for unknown parts), Round, White, Black, Result (regenerated: the rules' when
 * they end the game, else the one recorded), WhiteRating, BlackRating, GameType 25, FEN (when the
 * game does not start from the standard position), then the other metadata; moves by square names
 * with all their landings, annotations, comments and variations. What PDN text cannot hold (a
 * comment with `}`, a line break in a tag value, an annotation PDN has no token for) does not fit.
 */
export function writePdnGame(game: CheckersInterchange): string {
  const replay = replayInterchange(game);
  const tags: { name: string; value: string }[] = [];
  const add = (name: string, value: string | null): void => {
    if (value === null || tags.some((t) => t.name === name)) return;
    if (!TAG_NAME.test(name)) throw doesNotFit(`the metadata "${name}" cannot be a PDN tag: a tag name is a letter followed by letters, digits or _`);
    if (/[\r\n]/.test(value)) throw doesNotFit(`the ${name} value holds a line break, which a PDN tag value cannot`);
    tags.push({ name, value });
  };
  const [white, black] = game.players;
  add('Event', game.event);
  add('Site', game.site);
  add('Date', game.date ? pdnDate(game.date) : null);
  add('Round', game.round);
  add('White', white.name);
  add('Black', black.name);
  add('Result', resultText(replay.result));
  add('WhiteRating', white.rating === null ? null : String(white.rating));
  add('BlackRating', black.rating === null ? null : String(black.rating));
  add('GameType', String(RUSSIAN_GAME_TYPE));
  add('FEN', game.setup ? writeFen(replay.start) : null);
  for (const { name, value } of game.other) add(name, value);

  const lineOf = (line: CheckersLine, firstPly: number): LineToWrite => ({
    comments: line.comments.map(pdnComment),
    moves: line.moves.map((move, i) => {
      const [strength, nags] = pdnAnnotations(move);
      return {
        text: writeMove(replay.moves.get(move)!, 'algebraic') + strength,
        ply: firstPly + i,
        nags,
        comments: move.comments.map(pdnComment),
        variations: move.variations.map((variation) => lineOf(variation, firstPly + i)),
      };
    }),
  });
  return writePdn({ tags, main: lineOf(game.main, 1) }, new Map(), resultText(replay.result), replay.start.toMove);
}

/** `1950.??.??`, `1968.11.10`. */
function pdnDate(date: CheckersDate): string {
  const part = (value: number | null, width: number) => (value === null ? '?'.repeat(width) : String(value).padStart(width, '0'));
  return `${part(date.year, 4)}.${part(date.month, 2)}.${part(date.day, 2)}`;
}

function pdnComment(comment: string): string {
  if (comment.includes('}')) throw doesNotFit(`the comment "${comment}" holds "}", which ends a PDN comment`);
  return comment;
}

/** The first strength mark, glued to the move, and the other annotations as NAG tokens. */
function pdnAnnotations(move: CheckersMove): [string, string[]] {
  for (const annotation of move.annotations) {
    if (!STRENGTH.test(annotation) && !NAG.test(annotation)) throw doesNotFit(`the annotation "${annotation}" is neither a PDN strength mark (!, ?!…) nor a NAG ($n)`);
  }
  const [first, ...rest] = move.annotations;
  return first !== undefined && STRENGTH.test(first) ? [first, rest] : ['', [...move.annotations]];
}
