import { hashPassword, needsRehash, verifyPassword } from '../../src/dots-server/passwords.js';

describe('account passwords', () => {
  it('are kept as salted scrypt hashes that carry their cost', async () => {
    const first = await hashPassword('correct horse', 1024);
    const second = await hashPassword('correct horse', 1024);
    expect(first).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(first).not.toContain('correct horse');
    // A fresh salt each time.
    expect(first).not.toBe(second);
  });

  it('verify the right password only', async () => {
    const stored = await hashPassword('s3cret', 1024);
    expect(await verifyPassword('s3cret', stored)).toBe(true);
    expect(await verifyPassword('s3cre', stored)).toBe(false);
    expect(await verifyPassword('s3cret', 'plain:s3cret')).toBe(false);
  });

  it('read a hash made with another cost', async () => {
    expect(await verifyPassword('pw', await hashPassword('pw', 2048))).toBe(true);
  });
});

describe('a stored hash', () => {
  it('is made again when its cost is under DOTS_SCRYPT_COST, not when it is at or over it', async () => {
    const old = await hashPassword('correct horse', 2 ** 14);
    expect(needsRehash(old, 2 ** 17)).toBe(true);
    expect(needsRehash(old, 2 ** 14)).toBe(false);
    expect(needsRehash(old, 2 ** 10)).toBe(false);
    expect(needsRehash('scrypt$131072$4$1$c2FsdA==$aGFzaA==', 2 ** 17)).toBe(true);
    expect(needsRehash('plain:correct horse', 2 ** 17)).toBe(true);
  });
});
