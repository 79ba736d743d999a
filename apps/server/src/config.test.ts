import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('config', () => {
  it('defaults to the embedded database on port 3000 with demo data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data' });
    expect(config.seedDemo).toBe(true);
    expect(config.baseUrl).toBe('http://localhost:3000');
  });

  it('uses PostgreSQL when DATABASE_URL is set, without demo data', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' });
    expect(config.database.kind).toBe('postgres');
    expect(config.seedDemo).toBe(false);
  });

  it('lists every bad variable by name', () => {
    const problems = problemsOf({ PORT: 'abc', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    expect(problems.map((p) => p.split(':')[0])).toEqual(expect.arrayContaining(['PORT', 'DATABASE_URL', 'LOG_LEVEL']));
  });

  it('refuses an insecure production configuration', () => {
    const problems = problemsOf({ NODE_ENV: 'production', BASE_URL: 'http://shop.example' });
    expect(problems.join('\n')).toMatch(/BETTER_AUTH_SECRET/);
    expect(problems.join('\n')).toMatch(/BASE_URL: must be an https URL/);
  });

  it('refuses the test password hash in production, and takes it elsewhere', () => {
    const production = { NODE_ENV: 'production', BASE_URL: 'https://shop.example', BETTER_AUTH_SECRET: 'x'.repeat(40) };
    expect(problemsOf({ ...production, PASSWORD_HASH: 'test-sha256' })).toEqual([
      'PASSWORD_HASH: test-sha256 is for test accounts only; production hashes passwords with scrypt',
    ]);
    expect(loadConfig(production).passwordHash).toBe('scrypt');
    expect(loadConfig({ NODE_ENV: 'test', PASSWORD_HASH: 'test-sha256' }).passwordHash).toBe('test-sha256');
    expect(problemsOf({ PASSWORD_HASH: 'md5' }).map((p) => p.split(':')[0])).toEqual(['PASSWORD_HASH']);
  });

  it('refuses a production BETTER_AUTH_SECRET made of spaces, naming the variable', () => {
    const base = { NODE_ENV: 'production', BASE_URL: 'https://shop.example' };
    for (const secret of [' '.repeat(40), `\t${' '.repeat(38)}\t`, `${' '.repeat(35)}abc`]) {
      expect(problemsOf({ ...base, BETTER_AUTH_SECRET: secret }), JSON.stringify(secret)).toEqual([
        'BETTER_AUTH_SECRET: must be 32+ random characters, not spaces',
      ]);
    }
  });

  it('refuses http:// entries in TRUSTED_ORIGINS in production, and names them', () => {
    const base = { NODE_ENV: 'production', BASE_URL: 'https://shop.example', BETTER_AUTH_SECRET: 'x'.repeat(40) };
    expect(problemsOf({ ...base, TRUSTED_ORIGINS: 'https://admin.example, http://old.example' })).toEqual([
      'TRUSTED_ORIGINS: must be https origins in production (not http://old.example)',
    ]);
    expect(loadConfig({ ...base, TRUSTED_ORIGINS: 'https://admin.example' }).trustedOrigins).toContain('https://admin.example');
    // Outside production a local http origin is normal.
    expect(loadConfig({ TRUSTED_ORIGINS: 'http://127.0.0.1:5173' }).trustedOrigins).toContain('http://127.0.0.1:5173');
  });

  it('accepts a secure production configuration and never seeds demo data there', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      BASE_URL: 'https://shop.example',
      BETTER_AUTH_SECRET: 'x'.repeat(40),
      DATABASE_URL: 'postgres://a@b/c',
    });
    expect(config.isProduction).toBe(true);
    expect(config.seedDemo).toBe(false);
  });

  it('trusts no proxy unless TRUST_PROXY_HOPS says how many, in production too', () => {
    expect(loadConfig({}).trustProxyHops).toBe(0);
    expect(loadConfig({ NODE_ENV: 'production', BASE_URL: 'https://shop.example', BETTER_AUTH_SECRET: 'x'.repeat(40) }).trustProxyHops).toBe(0);
    expect(loadConfig({ TRUST_PROXY_HOPS: '2' }).trustProxyHops).toBe(2);
  });

  it.each(['-1', '1.5', 'true', 'abc'])('refuses TRUST_PROXY_HOPS=%s with a message naming it', (value) => {
    expect(problemsOf({ TRUST_PROXY_HOPS: value })).toEqual(['TRUST_PROXY_HOPS: must be a whole number of proxies (0 or more)']);
  });

  it('requires Google id and secret together', () => {
    expect(problemsOf({ GOOGLE_CLIENT_ID: 'id' }).join()).toMatch(/GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET/);
  });
});
