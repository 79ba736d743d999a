import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from 'better-auth/crypto';
import { testPasswordHash } from './test-password-hash.ts';

describe('the test password hash', () => {
  it('verifies the right password only, with a new salt each time', async () => {
    const first = await testPasswordHash.hash('Passw0rd');
    const second = await testPasswordHash.hash('Passw0rd');
    expect(first).not.toBe(second);
    expect(first).not.toContain('Passw0rd');
    expect(await testPasswordHash.verify({ hash: first, password: 'Passw0rd' })).toBe(true);
    expect(await testPasswordHash.verify({ hash: first, password: 'Passw0rd ' })).toBe(false);
    // The digest's last hex digit changed to another one (a fixed "00" equalled it one time in 256).
    const tampered = `${first.slice(0, -1)}${first.endsWith('0') ? '1' : '0'}`;
    expect(await testPasswordHash.verify({ hash: tampered, password: 'Passw0rd' })).toBe(false);
  });

  it('still verifies a scrypt hash, while scrypt never accepts a test hash', async () => {
    const scrypt = await hashPassword('Passw0rd');
    expect(await testPasswordHash.verify({ hash: scrypt, password: 'Passw0rd' })).toBe(true);
    expect(await testPasswordHash.verify({ hash: scrypt, password: 'Wrong0ne' })).toBe(false);
    await expect(verifyPassword({ hash: await testPasswordHash.hash('Passw0rd'), password: 'Passw0rd' })).rejects.toThrow();
  });
});
