import { answerOf } from './connection.js';
import type { Connection } from './connection.js';
import { EXIT } from './exit-codes.js';
import type { ExitCode } from './exit-codes.js';
import { createToken, listTokens, revokeToken } from './generated/sdk.gen.js';
import type { Scope, TokenDto } from './generated/types.gen.js';
import type { CliIo } from './progress.js';

/**
 * The scopes a token may hold, with what each lets it do, for `--scope` and its help. The
 * `satisfies` keeps the keys equal to the generated client's `Scope`: a scope added to the API and
 * not here (or the reverse) fails the type check.
 */
export const SCOPES = {
  'games:write': 'upload files and start imports',
  'games:delete': "delete the account's games",
  'games:reindex': "read the account's games again with today's plugins",
  admin: "all of these on any account's games, and tokens and the audit trail",
} as const satisfies Record<Scope, string>;

export interface CreateOptions {
  readonly account: string;
  readonly name: string;
  readonly scopes: readonly Scope[];
  /** An ISO 8601 instant; the archive refuses one in the past. */
  readonly expires?: string;
}

/**
 * `tabula token create`: the secret alone on stdout, so that `TOKEN=$(tabula token create …)`
 * captures it and nothing else; what it is (id, account, scopes, expiry) on stderr, for the person.
 */
export async function runTokenCreate(connection: Connection, io: CliIo, options: CreateOptions): Promise<ExitCode> {
  const result = await createToken({
    client: connection.client,
    body: { account: options.account, name: options.name, scopes: [...options.scopes], ...(options.expires !== undefined ? { expiresAt: options.expires } : {}) },
  });
  const { data } = answerOf(connection, result, 'POST /tokens');
  io.stdout.write(`${data.token}\n`);
  io.stderr.write(
    `token ${data.id} for the account ${data.account} (${data.name}): ${data.scopes.join(', ')}; ` +
      `${data.expiresAt === null ? 'never expires' : `expires ${data.expiresAt}`}\n` +
      'the secret above is shown this once: the archive keeps only its hash\n',
  );
  return EXIT.ok;
}

/** `tabula token list`: the tokens not revoked, as a table or, with `json`, as the archive answered. */
export async function runTokenList(connection: Connection, io: CliIo, options: { json: boolean }): Promise<ExitCode> {
  const { data } = answerOf(connection, await listTokens({ client: connection.client }), 'GET /tokens');
  if (options.json) {
    io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
  } else if (data.items.length === 0) {
    io.stderr.write('no tokens\n');
  } else {
    io.stdout.write(tokenTable(data.items));
  }
  return EXIT.ok;
}

/** `tabula token revoke <id>`: the token stops working (on other nodes of the archive within a few seconds). */
export async function runTokenRevoke(connection: Connection, io: CliIo, id: number): Promise<ExitCode> {
  answerOf(connection, await revokeToken({ client: connection.client, path: { id } }), `DELETE /tokens/${id}`);
  io.stderr.write(`token ${id} revoked\n`);
  return EXIT.ok;
}

/** An instant to the second, in UTC: enough to tell tokens apart, short enough for a table. */
const instant = (value: string | null, none: string) => (value === null ? none : value.replace(/\.\d+Z$/, 'Z'));

/** A name is any text up to 200 characters: control characters would break the table's lines. */
const cell = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, ' ');

/** The tokens as columns padded to their widest cell, a header first. */
export function tokenTable(tokens: readonly TokenDto[]): string {
  const rows = [
    ['ID', 'ACCOUNT', 'NAME', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED'],
    ...tokens.map((token) => [
      String(token.id),
      token.account,
      cell(token.name),
      token.scopes.join(','),
      instant(token.createdAt, '-'),
      instant(token.expiresAt, 'never'),
      instant(token.lastUsedAt, 'never'),
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows.map((row) => `${row.map((value, column) => (column === row.length - 1 ? value : value.padEnd(widths[column]))).join('  ')}\n`).join('');
}
