import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Account passwords, kept only as scrypt hashes: `scrypt$N$r$p$salt$hash` (salt and hash in
 * base64), so that each hash carries the cost it was made with and a later DOTS_SCRYPT_COST
 * leaves older hashes readable.
 */
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const BLOCK_SIZE = 8;
const PARALLEL = 1;

function derive(password: string, salt: Buffer, cost: number, blockSize: number, parallel: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    // 128 * N * r bytes are needed; leave headroom over the default 32 MiB cap for large costs.
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, { N: cost, r: blockSize, p: parallel, maxmem: 256 * cost * blockSize + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, cost, BLOCK_SIZE, PARALLEL);
  return ['scrypt', cost, BLOCK_SIZE, PARALLEL, salt.toString('base64'), key.toString('base64')].join('$');
}

/** Whether `password` matches the stored hash; a hash of another form never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [cost, blockSize, parallel] = parts.slice(1, 4).map(Number);
  const salt = Buffer.from(parts[4], 'base64');
  const expected = Buffer.from(parts[5], 'base64');
  const key = await derive(password, salt, cost, blockSize, parallel);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Whether a stored hash is weaker than new hashes of `cost` are (a lower N or block size, or another
 * form): made again at the account's next successful login.
 */
export function needsRehash(stored: string, cost: number): boolean {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return true;
  const [storedCost, blockSize] = parts.slice(1, 3).map(Number);
  return !(storedCost >= cost) || !(blockSize >= BLOCK_SIZE);
}
