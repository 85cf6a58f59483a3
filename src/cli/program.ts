import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { archiveUrl, connect, DEFAULT_URL } from './connection.js';
import { CliError, EXIT } from './exit-codes.js';
import { EXPORT_FORMATS, runExport } from './export-command.js';
import type { ExportFilters } from './export-command.js';
import type { Scope } from './generated/types.gen.js';
import { runImport } from './import-command.js';
import { runLogin, runLogout } from './login-command.js';
import type { CliIo } from './progress.js';
import { savedToken } from './saved-tokens.js';
import { runTokenCreate, runTokenList, runTokenRevoke, SCOPES } from './token-command.js';

type FilterKind = 'text' | 'integer' | 'number' | 'boolean';

/**
 * The search filters of `GET /games` / `GET /games/export`, one option each: the query name in
 * kebab case (`movesMin` is `--moves-min`; commander hands it back as `movesMin`). The `satisfies`
 * keeps this list equal to the generated client's query type: a filter added to the API and not
 * here (or the reverse) fails the type check.
 */
const FILTERS = {
  player: ['text', "part of a player's name (3+ characters anywhere in a name, 1-2 whole names)"],
  winner: ['text', 'part of the name of a player who won'],
  externalId: ['text', "a player's id in the source system, exactly"],
  family: ['text', 'go, dots, checkers, peg-solitaire…'],
  publisher: ['text', 'the format publisher'],
  version: ['text', 'the format version'],
  status: ['text', 'indexed (read and replayed) or stored (kept verbatim only)'],
  consistent: ['boolean', "true: the file's cached values agree with the replay; false: they do not"],
  filename: ['text', 'the uploaded file name, exactly'],
  owner: ['text', 'the account that published the game'],
  uploadedFrom: ['text', 'uploaded at or after this instant (ISO 8601)'],
  uploadedTo: ['text', 'uploaded before this instant (ISO 8601)'],
  playedFrom: ['text', 'played on or after this day (YYYY-MM-DD)'],
  playedTo: ['text', 'played on or before this day (YYYY-MM-DD)'],
  movesMin: ['integer', 'at least this many plies in the main line'],
  movesMax: ['integer', 'at most this many plies in the main line'],
  boardSize: ['text', 'board size: 19, or WxH such as 39x32'],
  event: ['text', 'the event, whole, case-insensitively'],
  ending: ['text', 'score, resignation, time, forfeit, draw or unknown'],
  marginMin: ['number', "the winner's margin in points is at least this"],
  marginMax: ['number', "the winner's margin in points is at most this"],
  rating: ['text', "a player's rating or rank as written (5d, 2100)"],
  rankMin: ['text', 'Go: every player is this rank or stronger (30k…1k, 1d…9d, 1p…9p; also 5 dan, 2段, 15級)'],
  rankMax: ['text', 'Go: every player is this rank or weaker (as --rank-min)'],
  ratingMin: ['number', "every player's numeric rating is at least this"],
  ratingMax: ['number', "every player's numeric rating is at most this"],
  rules: ['text', 'the rules named (Japanese, Chinese…)'],
  unique: ['boolean', 'true: each game once (a copy of a game, another format, turned or broken off, is left out)'],
  signature: ['text', 'Go: the Dyer signature, 12 characters (pdddpp…)'],
  tags: ['text', 'tags, comma-separated: all of them, and none of those written with a leading - (studied,-handicap)'],
  text: ['text', 'words the files write (comments, event, players), web-search syntax: ladder -handicap, "sente resign", ko or seki'],
  sort: ['text', '-uploaded (default), uploaded, played or -played'],
} as const satisfies Record<keyof ExportFilters, readonly [FilterKind, string]>;

const kebab = (name: string) => name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);

function integer(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('not a whole number');
  return Number(value);
}

function positive(value: string): number {
  const number = integer(value);
  if (number < 1) throw new InvalidArgumentError('must be 1 or more');
  return number;
}

function decimal(value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number)) throw new InvalidArgumentError('not a number');
  return number;
}

function boolean(value: string): boolean {
  if (value !== 'true' && value !== 'false') throw new InvalidArgumentError('true or false');
  return value === 'true';
}

const PARSERS: Record<FilterKind, ((value: string) => unknown) | undefined> = { text: undefined, integer, number: decimal, boolean };

/** `--scope`, given once per scope: each checked, gathered in order, each once. */
function scope(value: string, previous: Scope[] = []): Scope[] {
  if (!Object.hasOwn(SCOPES, value)) throw new InvalidArgumentError(`one of ${Object.keys(SCOPES).join(', ')}`);
  return previous.includes(value as Scope) ? previous : [...previous, value as Scope];
}

/** An instant as ISO 8601 writes it (2027-06-01T00:00:00Z); the archive checks it strictly and refuses one in the past. */
function isoInstant(value: string): string {
  if (!/^\d{4}-\d{2}-\d{2}(T\S+)?$/.test(value) || Number.isNaN(Date.parse(value))) throw new InvalidArgumentError('an ISO 8601 instant, e.g. 2027-06-01T00:00:00Z');
  return value;
}

const EXIT_HELP = `
Environment:
  TABULA_URL       the archive's address when --url is not given (default ${DEFAULT_URL})
  TABULA_TOKEN     the token sent as Authorization: Bearer: writes need one holding their scope (when the
                   archive sets API_KEYS), token commands an admin's, reads any (when PUBLIC_READS=false)
  TABULA_API_KEY   its old name, read when TABULA_TOKEN is not set; with neither, the token
                   \`tabula login\` saved for the archive's URL is sent
  TABULA_CONFIG    the file login saves tokens in (default $XDG_CONFIG_HOME/tabula/config.json,
                   else ~/.config/tabula/config.json)

Exit status:
  ${EXIT.ok}  done, nothing refused
  ${EXIT.refused}  done, but the archive refused one or more files (listed in the summary)
  ${EXIT.usage}  bad command line, input path or config file
  ${EXIT.server}  the archive answered with an error that stopped the command (a refused token too), or an import failed
  ${EXIT.network}  the archive could not be reached`;

/**
 * Runs `tabula` with these arguments (without `node` and the script) and answers the exit status.
 * Output goes through `io`, so tests run it in-process against an archive.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let status: number = EXIT.ok;
  const program = new Command('tabula')
    .description('Import game files into a Tabula archive, export games from it and manage its tokens, over its HTTP API.')
    .exitOverride()
    .configureOutput({ writeOut: (text) => void io.stdout.write(text), writeErr: (text) => void io.stderr.write(text) })
    .showHelpAfterError('(add --help for usage)')
    .option('--url <url>', 'the archive (env TABULA_URL)', io.env.TABULA_URL || DEFAULT_URL)
    .option('-q, --quiet', 'no progress on stderr (the summary is still printed)')
    .addHelpText('after', EXIT_HELP);

  const url = () => program.opts<{ url: string }>().url;
  // The environment's token first (a script's, a CI job's), then the one saved by login: the config
  // file is read only when neither is set, so a broken one stands in the way of nothing else.
  const connection = async () => {
    const baseUrl = archiveUrl(url());
    const token = io.env.TABULA_TOKEN?.trim() || io.env.TABULA_API_KEY?.trim() || (await savedToken(io.env, baseUrl));
    return connect(baseUrl, token);
  };
  const quiet = () => program.opts<{ quiet?: boolean }>().quiet === true;

  program
    .command('import')
    .description(
      'Send files to the archive: folders are walked recursively; the files found and named go in as one import (POST /imports, sent as a tar made while the files are read), ' +
        'a single file or files with --game-format as uploads of their own (POST /uploads); zip, tar and tar.gz files go in as one import each.',
    )
    .argument('<paths...>', 'files, folders, zip or tar files')
    .option('-c, --concurrency <n>', 'files uploaded at once (with --game-format)', positive, 4)
    .option('--game-format <publisher/version>', 'the format of every plain file (skips detection; sends each file as an upload), e.g. GoFans/2.1')
    .option('--wait <seconds>', 'how long an import in progress is followed through an archive that does not answer (a restart: the archive goes on with it)', positive, 120)
    .addOption(new Option('--poll <ms>', 'milliseconds between looks at an import in progress').argParser(positive).default(500).hideHelp())
    .addHelpText('after', '\nPrints a summary on stdout: files, games stored, duplicates (games the archive already had), refused files with their problem (code: detail).\nExits 1 when a file was refused.')
    .action(async (paths: string[], options: { concurrency: number; gameFormat?: string; poll: number; wait: number }) => {
      status = await runImport(await connection(), io, paths, { concurrency: options.concurrency, format: options.gameFormat, pollMs: options.poll, patienceMs: options.wait * 1000, quiet: quiet() });
    });

  const exportCommand = program
    .command('export')
    .description('Write every game a search finds to one file (GET /games/export): NDJSON, zip or tar of the stored files, or one SGF or PDN collection (needs --family).')
    .requiredOption('-o, --output <file>', 'the file to write; its extension names the format unless --format does')
    .addOption(new Option('--format <format>', 'the form of the file').choices(EXPORT_FORMATS))
    .option('--limit <n>', 'at most this many games in this run; the file then says where to go on (--resume)', positive)
    .option('--cursor <cursor>', 'start after this cursor (the next of GET /games or of an export cut short)')
    .option('--page-size <n>', 'games per request for NDJSON, SGF and PDN (each page is appended whole)', positive, 1000)
    .option('--resume', 'the file exists: go on where it stopped (NDJSON: its last line {"next"}; SGF, PDN: <file>.next.json)')
    .option('--force', 'the file exists: write it anew');
  for (const [name, [kind, help]] of Object.entries(FILTERS) as [keyof ExportFilters, readonly [FilterKind, string]][]) {
    const placeholder = kind === 'boolean' ? 'true|false' : kind === 'text' ? 'value' : 'n';
    const option = new Option(`--${kebab(name)} <${placeholder}>`, `${help} (query ${name})`);
    const parse = PARSERS[kind];
    exportCommand.addOption(parse ? option.argParser(parse) : option);
  }
  exportCommand.addHelpText('after', '\nFilters given with --resume are not sent again: the cursor the file keeps carries them.').action(async (options: Record<string, unknown>) => {
    const filters = Object.fromEntries(Object.keys(FILTERS).filter((name) => options[name] !== undefined).map((name) => [name, options[name]])) as ExportFilters;
    status = await runExport(await connection(), io, {
      output: options.output as string,
      format: options.format as string | undefined,
      filters,
      cursor: options.cursor as string | undefined,
      limit: options.limit as number | undefined,
      pageSize: options.pageSize as number,
      resume: options.resume === true,
      force: options.force === true,
      quiet: quiet(),
    });
  });

  const token = program.command('token').description("Make, list and revoke the archive's tokens (needs an admin's token).");
  token
    .command('create')
    .description('Make a token for an account (POST /tokens; the account is made when new). Prints its secret alone on stdout, what it is on stderr.')
    .requiredOption('--account <name>', 'the account it acts for: lower-case letters, digits, ".", "_", "-"')
    .requiredOption('--name <name>', 'what it is for, as its holder will know it ("uploader laptop")')
    .requiredOption('--scope <scope>', `what it may do, once per scope: ${Object.entries(SCOPES).map(([name, help]) => `${name} (${help})`).join('; ')}`, scope)
    .option('--expires <instant>', 'when it stops working, ISO 8601 (2027-06-01T00:00:00Z); never when not given', isoInstant)
    .addHelpText('after', '\nThe secret is shown this once: TOKEN=$(tabula token create …) keeps it.')
    .action(async (options: { account: string; name: string; scope: Scope[]; expires?: string }) => {
      status = await runTokenCreate(await connection(), io, { account: options.account, name: options.name, scopes: options.scope, expires: options.expires });
    });
  token
    .command('list')
    .description('The tokens not revoked (GET /tokens), never their secrets: id, account, name, scopes, created, expires, last used.')
    .option('--json', 'print the JSON the archive answered instead of a table')
    .action(async (options: { json?: boolean }) => {
      status = await runTokenList(await connection(), io, { json: options.json === true });
    });
  token
    .command('revoke')
    .description('Revoke a token (DELETE /tokens/{id}): requests with it are refused from then on.')
    .argument('<id>', "the token's id (tabula token list)", positive)
    .action(async (id: number) => {
      status = await runTokenRevoke(await connection(), io, id);
    });

  program
    .command('login')
    .description("Check a token with the archive and save it for the archive's URL, for the commands that follow (0600 file: TABULA_CONFIG).")
    .option('--token <token>', 'the token; others may see it in the process list: given none, login reads one line of standard input (not shown as it is typed)')
    .addHelpText('after', '\nTABULA_TOKEN and TABULA_API_KEY, when set, are sent rather than the saved token.')
    .action(async (options: { token?: string }) => {
      status = await runLogin(url(), io, options.token);
    });
  program
    .command('logout')
    .description("Forget the token saved for the archive's URL (the token works on until it is revoked).")
    .action(async () => {
      status = await runLogout(url(), io);
    });

  try {
    await program.parseAsync([...argv], { from: 'user' });
    return status;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    if (error instanceof CliError) {
      io.stderr.write(`tabula: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(`tabula: ${(error as Error).stack ?? String(error)}\n`);
    return EXIT.server;
  }
}
