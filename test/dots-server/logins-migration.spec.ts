import type { QueryRunner } from 'typeorm';
import { DotsLogins1766000000000 } from '../../migrations/1766000000000-DotsLogins.js';
import { loginKey } from '../../src/dots-server/login-key.js';

// The migration that makes Dots logins unique by key: the keys of accounts made before it.

describe('the DotsLogins migration', () => {
  it('gives each existing key to its oldest account, leaving the younger look-alikes keyless (they still log in by their login)', async () => {
    const sent: { sql: string; params?: unknown[] }[] = [];
    const db = {
      query: async (sql: string, params?: unknown[]) => {
        sent.push({ sql, params });
        return sql.startsWith('SELECT login') ? [{ login: 'victim' }, { login: 'bob' }, { login: 'Victim' }, { login: 'vіctim' }] : [];
      },
    } as unknown as QueryRunner;
    await new DotsLogins1766000000000().up(db);
    expect(sent.map((query) => query.sql.split(' ').slice(0, 3).join(' '))).toEqual(['ALTER TABLE dots_accounts', 'SELECT login FROM', 'UPDATE dots_accounts a', 'CREATE UNIQUE INDEX']);
    expect(sent[1].sql).toContain('ORDER BY created_at');
    expect(sent[2].params).toEqual([
      ['victim', 'bob'],
      [loginKey('victim'), loginKey('bob')],
    ]);
  });
});
