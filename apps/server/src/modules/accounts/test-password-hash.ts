import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from 'better-auth/crypto';

/**
 * The test suites' password hash (`PASSWORD_HASH=test-sha256`; config.ts refuses it in production):
 * one salted SHA-256, microseconds where scrypt takes 175–475 ms of CPU on a busy 2-core machine, for
 * the hundreds of accounts the suites sign up. Wrong passwords still fail; real scrypt stays on for
 * the tests of hashing itself (accounts.test.ts). Stored as `test-sha256$<salt>$<digest>`, a shape
 * scrypt's verifier never accepts, so an account made this way cannot sign in to a server on scrypt.
 */
const PREFIX = 'test-sha256$';

function digest(salt: string, password: string): Buffer {
  return createHash('sha256').update(`${salt}$${password}`).digest();
}

export const testPasswordHash = {
  async hash(password: string): Promise<string> {
    const salt = randomBytes(16).toString('hex');
    return `${PREFIX}${salt}$${digest(salt, password).toString('hex')}`;
  },
  async verify({ hash, password }: { hash: string; password: string }): Promise<boolean> {
    // Accounts made before the switch (a data folder a scrypt server wrote) keep signing in.
    if (!hash.startsWith(PREFIX)) return verifyPassword({ hash, password });
    const [salt = '', stored = ''] = hash.slice(PREFIX.length).split('$');
    const expected = Buffer.from(stored, 'hex');
    const actual = digest(salt, password);
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
};
