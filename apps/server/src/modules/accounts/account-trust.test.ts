import { afterAll, describe, expect, it, vi } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AccountSessionsResponse, MeResponse } from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, linkIn, queuedEmail, signIn, signUpOperator, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { OPERATOR_EMAIL, validBusinessBody } from '../../../test/helpers/business.ts';
import { seedProduct } from '../../../test/helpers/products.ts';
import { readableText, startSmtp } from '../../../test/helpers/smtp.ts';
import { queryRows } from '../../db/rows.ts';
import { user as userTable, verification } from '../../db/schema/auth.ts';
import { emailOutbox } from '../../db/schema/orders.ts';
import { createSmtpTransport, deliverDueEmails } from '../notifications/mail-deliverer.ts';
import { RESET_REQUESTED_MESSAGE } from './auth.routes.ts';

async function me(env: TestEnv, cookie: string): Promise<MeResponse> {
  return (await env.request({ method: 'GET', url: '/api/me', headers: { cookie } })).json() as MeResponse;
}

function requestReset(env: TestEnv, email: string) {
  return env.request({ method: 'POST', url: '/api/auth/request-password-reset', payload: { email } });
}

function resetPassword(env: TestEnv, token: string | null, newPassword: string) {
  return env.request({ method: 'POST', url: '/api/auth/reset-password', payload: { token, newPassword } });
}

/** The reset token of the newest reset e-mail queued for `email` (the request works after answering). */
async function mailedResetToken(env: TestEnv, email: string): Promise<string> {
  const mail = await vi.waitFor(
    async () => {
      const found = await queuedEmail(env, email, 'Reset your BulkCart password');
      if (!found) throw new Error('no reset e-mail yet');
      return found;
    },
    { timeout: 10_000, interval: 50 },
  );
  return linkIn(mail.body).searchParams.get('token') ?? '';
}

describeEachDatabase(
  'confirmed e-mail: what it unlocks',
  (env) => {
    it('queues a confirmation e-mail at sign-up whose link confirms the address, once opened', async () => {
      const person = await signUpUser(env(), { name: 'Fresh Person', emailVerified: false });
      expect((await me(env(), person.cookie)).user?.emailVerified).toBe(false);
      const mail = await queuedEmail(env(), person.email, 'Confirm your e-mail for BulkCart');
      expect(mail?.carriesSecret).toBe(true);
      const link = linkIn(mail!.body);
      expect(link.pathname).toBe('/api/auth/verify-email');
      const opened = await env().request({ method: 'GET', url: `${link.pathname}${link.search}` });
      expect(opened.statusCode).toBe(302);
      expect(opened.headers.location).toBe('http://localhost:3000/settings?confirmed=1');
      expect((await me(env(), person.cookie)).user?.emailVerified).toBe(true);
    });

    it('a made-up confirmation token changes nothing and lands on the settings page with an error', async () => {
      const person = await signUpUser(env(), { name: 'Guessing Person', emailVerified: false });
      const opened = await env().request({
        method: 'GET',
        url: `/api/auth/verify-email?token=not-a-token&callbackURL=${encodeURIComponent('http://localhost:3000/settings?confirmed=1')}`,
      });
      expect(opened.statusCode).toBe(302);
      expect(String(opened.headers.location)).toMatch(/^http:\/\/localhost:3000\/settings\?confirmed=1&error=/);
      expect((await me(env(), person.cookie)).user?.emailVerified).toBe(false);
    });

    it('lets an unconfirmed account buy at base prices, but not submit its business for verification', async () => {
      const seller = await signUpUser(env(), { name: 'Open Seller' });
      const buyer = await signUpUser(env(), { name: 'Unconfirmed Buyer', emailVerified: false });
      const { id: productId } = await seedProduct(env(), seller, { mainquantity: 50, minquantity: 1, priceCents: 250 });
      const order = await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 2 } });
      expect(order.statusCode, order.body).toBe(201);
      const submit = await env().request({ method: 'PUT', url: '/api/business', headers: asUser(buyer), payload: validBusinessBody() });
      expect(submit.statusCode).toBe(403);
      expect(submit.json()).toMatchObject({ error: { code: 'FORBIDDEN', title: 'Confirm your e-mail' } });
      expect((await env().request({ method: 'GET', url: '/api/business', headers: asUser(buyer) })).json()).toMatchObject({ status: 'none' });
    });

    it('resends the confirmation only to the signed-in account itself, and not to the signed-out', async () => {
      const person = await signUpUser(env(), { name: 'Resend Person', emailVerified: false });
      await env().db().delete(emailOutbox).where(eq(emailOutbox.toEmail, person.email));
      const resend = await env().request({
        method: 'POST',
        url: '/api/auth/send-verification-email',
        headers: asUser(person),
        payload: { email: 'stranger@example.com' },
      });
      expect(resend.statusCode, resend.body).toBe(200);
      expect(await queuedEmail(env(), person.email, 'Confirm your e-mail')).toBeDefined();
      expect(await queuedEmail(env(), 'stranger@example.com', 'Confirm your e-mail')).toBeUndefined();
      const signedOut = await env().request({ method: 'POST', url: '/api/auth/send-verification-email', payload: { email: person.email } });
      expect(signedOut.statusCode).toBe(401);
    });

    it('lists products without a confirmed e-mail while REQUIRE_VERIFIED_SELLERS is off (the default)', async () => {
      const seller = await signUpUser(env(), { name: 'Unconfirmed Seller', emailVerified: false });
      const added = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: productBody() });
      expect(added.statusCode, added.body).toBe(201);
    });
  },
  { ADMIN_EMAILS: OPERATOR_EMAIL },
);

function productBody() {
  return {
    name: 'Trust Test Gloves',
    image: 'https://images.example/gloves.png',
    category: 'Health & Beauty',
    brandname: 'Trusty',
    mainquantity: 100,
    minquantity: 1,
    price: 5,
    discount: 0,
    description: 'Nitrile gloves, box of 100.',
  };
}

describeEachDatabase(
  'REQUIRE_VERIFIED_SELLERS=true',
  (env) => {
    it('refuses a product from an unconfirmed account and takes it once the address is confirmed', async () => {
      const seller = await signUpUser(env(), { name: 'Careful Seller', emailVerified: false });
      const refused = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: productBody() });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { title: 'Confirm your e-mail' } });
      const { count } = (await queryRows<{ count: number }>(env().db(), sql`SELECT count(*)::int AS count FROM products WHERE owner_id = ${seller.id}`))[0]!;
      expect(count).toBe(0);
      // Confirmed as if the link had been opened through another server process: this one may answer from
      // the session it cached for up to SESSION_CACHE_MS (docs/decisions/021-session-cache.md), not after.
      await env().db().update(userTable).set({ emailVerified: true }).where(eq(userTable.id, seller.id));
      const clock = env().ctx.clock;
      try {
        env().ctx.clock = () => new Date(clock().getTime() + env().config.sessionCacheMs);
        const added = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: productBody() });
        expect(added.statusCode, added.body).toBe(201);
      } finally {
        env().ctx.clock = clock;
      }
    });
  },
  { REQUIRE_VERIFIED_SELLERS: 'true' },
);

describeEachDatabase(
  "operators are who they say: claiming an operator's address",
  (env) => {
    const queue = (u: TestUser) => env().request({ method: 'GET', url: '/api/admin/verifications', headers: asUser(u) });

    it('gives nothing to a stranger who signed up with the address, even once the address counts as confirmed', async () => {
      const stranger = await signUpUser(env(), { name: 'Sneaky Stranger', email: OPERATOR_EMAIL, emailVerified: false });
      expect((await me(env(), stranger.cookie)).operator).toBe(false);
      expect((await queue(stranger)).statusCode).toBe(404);
      // No click-to-confirm link is ever mailed to an operator address, only a choose-your-password one.
      expect(await queuedEmail(env(), OPERATOR_EMAIL, 'Confirm your e-mail')).toBeUndefined();
      // Even a confirmed flag does not make the stranger's password the operator's.
      await env().db().update(userTable).set({ emailVerified: true }).where(eq(userTable.id, stranger.id));
      expect((await me(env(), stranger.cookie)).operator).toBe(false);
      expect((await queue(stranger)).statusCode).toBe(404);

      // The real operator proves the mailbox through the link it was sent, and takes the address back.
      const token = linkIn((await queuedEmail(env(), OPERATOR_EMAIL, 'Set your BulkCart operator password'))!.body).searchParams.get('token');
      expect((await resetPassword(env(), token, 'RealOperat0r')).statusCode).toBe(200);
      expect((await me(env(), stranger.cookie)).user).toBeNull();
      expect((await signIn(env(), OPERATOR_EMAIL, stranger.password)).status).toBe(401);
      const operator = await signIn(env(), OPERATOR_EMAIL, 'RealOperat0r');
      expect(operator.status).toBe(200);
      expect(await me(env(), operator.cookie!)).toMatchObject({ operator: true, user: { emailVerified: true } });
      expect((await env().request({ method: 'GET', url: '/api/admin/verifications', headers: { cookie: operator.cookie! } })).statusCode).toBe(200);
    });

    it('keeps a proven operator an operator, and the same address typed again cannot sign up twice', async () => {
      const email = 'second-ops@example.com';
      const operator = await signUpOperator(env(), email);
      expect((await me(env(), operator.cookie)).operator).toBe(true);
      const again = await env().request({ method: 'POST', url: '/api/auth/sign-up/email', payload: { name: 'Copy Cat', email, password: 'Passw0rd' } });
      expect(again.statusCode).toBe(422);
    });

    it('will not move another account onto an operator address: the mailbox is told, no link is sent', async () => {
      const mover = await signUpUser(env(), { name: 'Moving Person' });
      const email = 'third-ops@example.com';
      const response = await env().request({ method: 'POST', url: '/api/auth/change-email', headers: asUser(mover), payload: { newEmail: email } });
      expect(response.statusCode, response.body).toBe(200);
      const mail = await queuedEmail(env(), email, 'An account tried to move');
      expect(mail?.body).not.toMatch(/https?:\/\//);
      expect((await me(env(), mover.cookie)).user?.email).toBe(mover.email);
    });
  },
  { ADMIN_EMAILS: `${OPERATOR_EMAIL}, second-ops@example.com, third-ops@example.com` },
);

describe('password reset through a real SMTP server', async () => {
  const smtp = await startSmtp();
  afterAll(() => smtp.close());

  describeEachDatabase(
    'password reset',
    (env) => {
      const transport = () => createSmtpTransport(`smtp://127.0.0.1:${smtp.port}`);

      it('mails a one-hour, single-use link whose password signs out every session; the e-mail is not kept', async () => {
        const person = await signUpUser(env(), { name: 'Forgetful Person' });
        const otherDevice = await signIn(env(), person.email, person.password);
        const answer = await requestReset(env(), person.email.toUpperCase());
        expect(answer.statusCode).toBe(200);
        expect(answer.json()).toEqual({ status: true, message: RESET_REQUESTED_MESSAGE });
        const queued = await mailedResetToken(env(), person.email);
        // The verification table keeps a hash of the token, never the token: the reset's row is there
        // (its value is the person's id), and no row's identifier holds the mailed token.
        const stored = await env().db().select({ identifier: verification.identifier, value: verification.value }).from(verification);
        expect(stored.filter((row) => row.value === person.id)).toHaveLength(1);
        expect(stored.some((row) => row.identifier.includes(queued))).toBe(false);

        await deliverDueEmails(env().db(), transport(), 'BulkCart <test@bulkcart.local>', new Date());
        const received = smtp.received.filter((m) => m.to.includes(person.email)).at(-1);
        expect(received).toBeDefined();
        const link = linkIn(readableText(received!.raw));
        expect(link.pathname).toBe('/reset-password');
        const token = link.searchParams.get('token');
        expect(token).toBe(queued);
        expect(await queuedEmail(env(), person.email, 'Reset your BulkCart password')).toBeUndefined();

        const weak = await resetPassword(env(), token, 'short');
        expect(weak.statusCode).toBe(422);
        expect((await resetPassword(env(), token, 'BrandNew1')).statusCode).toBe(200);
        expect((await resetPassword(env(), token, 'SecondTry1')).statusCode).toBe(400);
        expect((await me(env(), person.cookie)).user).toBeNull();
        expect((await me(env(), otherDevice.cookie!)).user).toBeNull();
        expect((await signIn(env(), person.email, person.password)).status).toBe(401);
        expect((await signIn(env(), person.email, 'BrandNew1')).status).toBe(200);
      });

      it('refuses a link past its hour, and changes nothing', async () => {
        const person = await signUpUser(env(), { name: 'Slow Person' });
        await requestReset(env(), person.email);
        const token = await mailedResetToken(env(), person.email);
        await env()
          .db()
          .update(verification)
          .set({ expiresAt: new Date(Date.now() - 1000) });
        expect((await resetPassword(env(), token, 'TooLate12')).statusCode).toBe(400);
        expect((await signIn(env(), person.email, person.password)).status).toBe(200);
      });

      it('answers an unknown address exactly as a known one, and mails nobody', async () => {
        const known = await signUpUser(env(), { name: 'Known Person' });
        const a = await requestReset(env(), known.email);
        const b = await requestReset(env(), 'nobody-here@example.com');
        expect(b.statusCode).toBe(a.statusCode);
        expect(b.body).toBe(a.body);
        expect(b.headers['content-type']).toBe(a.headers['content-type']);
        await mailedResetToken(env(), known.email);
        expect(await queuedEmail(env(), 'nobody-here@example.com', 'Reset')).toBeUndefined();
      });

      it('proves the address: an unconfirmed account that resets its password is confirmed', async () => {
        const person = await signUpUser(env(), { name: 'Unconfirmed Resetter', emailVerified: false });
        await requestReset(env(), person.email);
        expect((await resetPassword(env(), await mailedResetToken(env(), person.email), 'Proven12')).statusCode).toBe(200);
        const [row] = await env().db().select({ verified: userTable.emailVerified }).from(userTable).where(eq(userTable.id, person.id));
        expect(row?.verified).toBe(true);
      });
    },
    { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` },
  );
});

describeEachDatabase(
  'rate limits on e-mail sent for someone',
  (env) => {
    it('refuses the sixth reset of one address within the hour, whoever asks, with Retry-After', async () => {
      const email = `limited-${Date.now()}@example.com`;
      for (let i = 0; i < 5; i++) expect((await requestReset(env(), email)).statusCode).toBe(200);
      const sixth = await requestReset(env(), email);
      expect(sixth.statusCode).toBe(429);
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
      expect((await requestReset(env(), `other-${email}`)).statusCode).toBe(200);
    });

    it('refuses the sixth confirmation e-mail an account asks for within the hour', async () => {
      const person = await signUpUser(env(), { name: 'Impatient Person', emailVerified: false });
      for (let i = 0; i < 5; i++) {
        const response = await env().request({ method: 'POST', url: '/api/auth/send-verification-email', headers: asUser(person), payload: {} });
        expect(response.statusCode, response.body).toBe(200);
      }
      const sixth = await env().request({ method: 'POST', url: '/api/auth/send-verification-email', headers: asUser(person), payload: {} });
      expect(sixth.statusCode).toBe(429);
    });
  },
  { RATE_LIMIT: 'true' },
);

describeEachDatabase('account settings', (env) => {
  it('changes the password with the current one, signing out the other sessions but not this one', async () => {
    const person = await signUpUser(env(), { name: 'Changing Person' });
    const other = await signIn(env(), person.email, person.password);
    const wrong = await env().request({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: asUser(person),
      payload: { currentPassword: 'Wrong1pass', newPassword: 'Changed12' },
    });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    expect((await me(env(), other.cookie!)).user).not.toBeNull();
    const weak = await env().request({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: asUser(person),
      payload: { currentPassword: person.password, newPassword: 'weak' },
    });
    expect(weak.statusCode).toBe(422);
    const changed = await env().request({
      method: 'POST',
      url: '/api/auth/change-password',
      headers: asUser(person),
      payload: { currentPassword: person.password, newPassword: 'Changed12' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await me(env(), other.cookie!)).user).toBeNull();
    expect((await signIn(env(), person.email, 'Changed12')).status).toBe(200);
  });

  it('changes the e-mail only once the new address confirms it, and tells the old one', async () => {
    const person = await signUpUser(env(), { name: 'Moving Person' });
    const newEmail = `moved-${Date.now()}@example.com`;
    const asked = await env().request({ method: 'POST', url: '/api/auth/change-email', headers: asUser(person), payload: { newEmail } });
    expect(asked.statusCode, asked.body).toBe(200);
    expect((await me(env(), person.cookie)).user?.email).toBe(person.email);
    expect((await queuedEmail(env(), person.email, 'Your BulkCart e-mail is being changed'))?.body).toContain(newEmail);
    const confirm = await queuedEmail(env(), newEmail, 'Confirm your new e-mail');
    const link = linkIn(confirm!.body);
    const opened = await env().request({ method: 'GET', url: `${link.pathname}${link.search}`, headers: asUser(person) });
    expect(opened.statusCode).toBe(302);
    expect((await me(env(), person.cookie)).user).toMatchObject({ email: newEmail, emailVerified: true });
  });

  it('lists the sessions with device and place and never a token, and signs out everywhere else', async () => {
    const person = await signUpUser(env(), { name: 'Many Devices' });
    await env().request({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      payload: { email: person.email, password: person.password },
      headers: {
        'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      },
    });
    const listed = await env().request({ method: 'GET', url: '/api/me/sessions', headers: asUser(person) });
    expect(listed.statusCode).toBe(200);
    const { sessions } = listed.json() as AccountSessionsResponse;
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions.map((s) => s.device)).toContain('Safari on iOS');
    expect(listed.body).not.toContain(person.token);
    expect(listed.body).not.toContain(person.cookie.split('=')[1]!.split('.')[0]);
    const ended = await env().request({ method: 'POST', url: '/api/me/sessions/sign-out-others', headers: asUser(person), payload: {} });
    expect(ended.json()).toEqual({ signedOut: 1 });
    const after = (await env().request({ method: 'GET', url: '/api/me/sessions', headers: asUser(person) })).json() as AccountSessionsResponse;
    expect(after.sessions).toHaveLength(1);
    expect(after.sessions[0]?.current).toBe(true);
  });

  it('deletes an account with its password, keeping the orders the seller needs; refused while one is open', async () => {
    const seller = await signUpUser(env(), { name: 'Staying Seller' });
    const buyer = await signUpUser(env(), { name: 'Leaving Buyer' });
    const { id: productId } = await seedProduct(env(), seller, { mainquantity: 50, minquantity: 1, priceCents: 300 });
    const order = (await env().request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity: 3 } })).json() as {
      _id: string;
    };
    const wrong = await env().request({ method: 'DELETE', url: '/api/me', headers: asUser(buyer), payload: { password: 'NotMine12' } });
    expect(wrong.statusCode).toBe(422);
    const open = await env().request({ method: 'DELETE', url: '/api/me', headers: asUser(buyer), payload: { password: buyer.password } });
    expect(open.statusCode).toBe(409);
    const cancel = await env().request({ method: 'DELETE', url: `/api/order/${order._id}`, headers: asUser(buyer) });
    expect(cancel.statusCode, cancel.body).toBe(200);
    const deleted = await env().request({ method: 'DELETE', url: '/api/me', headers: asUser(buyer), payload: { password: buyer.password } });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await me(env(), buyer.cookie)).user).toBeNull();
    expect((await signIn(env(), buyer.email, buyer.password)).status).toBe(401);
    const desk = await env().request({ method: 'GET', url: '/api/sales?status=cancelled', headers: asUser(seller) });
    expect(desk.body).toContain(order._id);
  });
});
