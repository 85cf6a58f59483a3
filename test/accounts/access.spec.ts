import { admit, mayActOn, ownerScope } from '../../src/accounts/access.js';
import { NOBODY, OPEN_CALLER } from '../../src/accounts/caller.js';
import type { Caller } from '../../src/accounts/caller.js';
import { ProblemException } from '../../src/common/problem-codes.js';
import type { Scope } from '../../src/accounts/scopes.js';

/** Every access decision, against a table of who asks what, written out by hand. */
const club = (account: string, ...scopes: Scope[]): Caller => ({ account, tokenId: '7', scopes: new Set(scopes) });
const admin: Caller = { account: 'admin', tokenId: 'key:0011223344556677', scopes: new Set<Scope>(['admin']) };

function refusal(decide: () => unknown): string | null {
  try {
    decide();
    return null;
  } catch (error) {
    if (!(error instanceof ProblemException)) throw error;
    return `${error.getStatus()} ${error.code}`;
  }
}

describe('access decisions', () => {
  it.each([
    // caller, requirement, public reads, answer
    [NOBODY, 'read', true, null],
    [NOBODY, 'read', false, '401 auth.required'],
    [club('club-a', 'games:write'), 'read', false, null],
    [NOBODY, 'games:write', true, '401 auth.required'],
    [club('club-a', 'games:write'), 'games:write', true, null],
    [club('club-a', 'games:write'), 'games:delete', true, '403 auth.scope'],
    [club('club-a', 'games:write'), 'admin', true, '403 auth.scope'],
    [admin, 'games:delete', true, null],
    [admin, 'admin', false, null],
    [OPEN_CALLER, 'admin', true, null],
    [NOBODY, 'none', false, null],
  ] as const)('%#: %o asking %s (public reads %s) → %s', (caller, requirement, publicReads, answer) => {
    expect(refusal(() => admit(caller, requirement, publicReads))).toBe(answer);
  });

  it.each([
    [club('club-a', 'games:delete'), 'club-a', null],
    [club('club-b', 'games:delete'), 'club-a', '403 auth.forbidden'],
    [club('club-a', 'games:delete'), null, '403 auth.forbidden'],
    [club('club-a', 'games:write'), 'club-a', '403 auth.scope'],
    [admin, 'club-a', null],
    [admin, null, null],
    [OPEN_CALLER, 'club-a', null],
    [NOBODY, 'club-a', '401 auth.required'],
  ] as const)('%#: %o deleting a game of %s → %s', (caller, owner, answer) => {
    expect(refusal(() => mayActOn(caller, 'games:delete', owner, 'game 1'))).toBe(answer);
  });

  it("narrows a club's batch to its own games, and lets admins choose", () => {
    expect(ownerScope(club('club-a', 'games:reindex'), 'games:reindex', undefined)).toBe('club-a');
    expect(ownerScope(club('club-a', 'games:reindex'), 'games:reindex', 'club-a')).toBe('club-a');
    expect(refusal(() => ownerScope(club('club-a', 'games:reindex'), 'games:reindex', 'club-b'))).toBe('403 auth.forbidden');
    expect(ownerScope(admin, 'games:reindex', undefined)).toBeUndefined();
    expect(ownerScope(admin, 'games:reindex', 'club-b')).toBe('club-b');
  });
});
