import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { signUpUser } from '../../../test/helpers/accounts.ts';
import { FAILED_ATTEMPTS_PER_MINUTE, SlidingWindowCounter } from '../../plugins/rate-limits.ts';

let ipCounter = 0;
/** A fresh client address per call, so a test decides exactly which attempts share an IP. */
function freshIp(): string {
  ipCounter += 1;
  return `10.${Math.floor(ipCounter / 250) % 250}.${ipCounter % 250}.7`;
}

function signIn(env: TestEnv, email: string, password: string, ip = freshIp()) {
  return env.request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password }, remoteAddress: ip });
}

describeEachDatabase(
  'sign-in and sign-up rate limits',
  (env) => {
    it('refuses the 6th failed sign-in for one email within a minute, from any IP, with 429 and Retry-After', async () => {
      const user = await signUpUser(env());
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      }
      // Even the right password waits: the limit is on the account, whoever is guessing.
      const refused = await signIn(env(), user.email.toUpperCase(), user.password);
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.json()).toEqual({
        error: {
          code: 'RATE_LIMITED',
          title: 'Too many requests',
          message: `Too many failed sign-in attempts. Try again in ${retryAfter} seconds.`,
        },
      });
      expect(refused.headers['set-cookie']).toBeUndefined();
    });

    it('refuses the 6th failed sign-in from one IP within a minute, whatever the email', async () => {
      const ip = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        expect((await signIn(env(), `guess-${randomUUID()}@example.com`, 'Wrong0ne', ip)).statusCode).toBe(401);
      }
      const user = await signUpUser(env());
      expect((await signIn(env(), user.email, user.password, ip)).statusCode).toBe(429);
      // Someone else on another network is not affected.
      expect((await signIn(env(), user.email, user.password)).statusCode).toBe(200);
    });

    it('counts only failures: a successful sign-in clears the account’s failed tries', async () => {
      const user = await signUpUser(env());
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE - 1; i++) {
        expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      }
      expect((await signIn(env(), user.email, user.password)).statusCode).toBe(200);
      // Without the reset the second of these would be the 6th failure and get 429.
      expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      expect((await signIn(env(), user.email, 'Wrong0ne')).statusCode).toBe(401);
      expect((await signIn(env(), user.email, user.password)).statusCode).toBe(200);
    });

    it('refuses the 6th failed sign-up for one email (probing which emails exist)', async () => {
      const user = await signUpUser(env());
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE; i++) {
        const response = await env().request({
          method: 'POST',
          url: '/api/auth/sign-up/email',
          payload: { name: 'Probe Person', email: user.email, password: 'Passw0rd' },
          remoteAddress: freshIp(),
        });
        expect(response.statusCode).toBe(422);
      }
      const refused = await env().request({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        payload: { name: 'Probe Person', email: user.email, password: 'Passw0rd' },
        remoteAddress: freshIp(),
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many failed sign-up attempts/) } });
    });

    it('does not slow down a user who signs in correctly again and again', async () => {
      const user = await signUpUser(env());
      const ip = freshIp();
      for (let i = 0; i < FAILED_ATTEMPTS_PER_MINUTE + 3; i++) {
        expect((await signIn(env(), user.email, user.password, ip)).statusCode).toBe(200);
      }
    });
  },
  { RATE_LIMIT: 'true' },
);

describe('SlidingWindowCounter', () => {
  it('lets the key in again once its oldest hit leaves the window, and says how long to wait', () => {
    const counter = new SlidingWindowCounter(3, 60_000);
    const t0 = 1_000_000;
    counter.record('k', t0);
    counter.record('k', t0 + 10_000);
    expect(counter.waitMs('k', t0 + 10_000)).toBe(0);
    counter.record('k', t0 + 20_000);
    expect(counter.waitMs('k', t0 + 30_000)).toBe(30_000);
    expect(counter.waitMs('k', t0 + 60_000)).toBe(0);
    expect(counter.waitMs('other', t0 + 30_000)).toBe(0);
  });

  it('forgets a key when cleared', () => {
    const counter = new SlidingWindowCounter(1, 60_000);
    counter.record('k', 5);
    expect(counter.waitMs('k', 5)).toBeGreaterThan(0);
    counter.clear('k');
    expect(counter.waitMs('k', 5)).toBe(0);
  });
});
