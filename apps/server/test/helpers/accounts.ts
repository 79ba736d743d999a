import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, like } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { emailOutbox } from '../../src/db/schema/notifications.ts';
import type { Address } from '@bulkcart/contracts';
import { session, user } from '../../src/db/schema/auth.ts';
import { shipToAddresses } from '../../src/db/schema/orders.ts';
import type { TestEnv } from './test-app.ts';

export interface TestUser {
  id: string;
  email: string;
  name: string;
  password: string;
  /** `cookie` header value carrying the session. */
  cookie: string;
  /** The session token for `Authorization: Bearer …`. */
  token: string;
}

function sessionCookie(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const session = all.find((c) => c.startsWith('better-auth.session_token='));
  if (!session) throw new Error(`no session cookie in ${JSON.stringify(all)}`);
  return session.split(';')[0] ?? '';
}

/** The saved ship-to every test account starts with, so a purchase needs no address in its body. */
export const TEST_SHIP_TO: Address = {
  company: 'Test Buyer Ltd',
  line1: '1 Warehouse Road',
  city: 'Springfield',
  region: 'IL',
  postalCode: '62701',
  country: 'US',
  phone: '+1 217 555 0100',
};

/**
 * Signs up a fresh user through the real API and returns its session. The account gets TEST_SHIP_TO
 * as its saved address unless `withShipTo` is false, and its e-mail counts as confirmed unless
 * `emailVerified` is false (the confirmation link itself is tested in account-trust.test.ts).
 */
export async function signUpUser(
  env: TestEnv,
  overrides: Partial<{ name: string; email: string; password: string; withShipTo: boolean; emailVerified: boolean }> = {},
): Promise<TestUser> {
  const name = overrides.name ?? 'Test Buyer';
  const email = overrides.email ?? `user-${randomUUID()}@example.com`;
  const password = overrides.password ?? 'Passw0rd';
  const response = await env.request({ method: 'POST', url: '/api/auth/sign-up/email', payload: { name, email, password } });
  if (response.statusCode !== 200) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  const body = response.json() as { user: { id: string } };
  if (overrides.withShipTo !== false) await env.db().insert(shipToAddresses).values({ userId: body.user.id, address: TEST_SHIP_TO });
  if (overrides.emailVerified !== false) {
    // As if the link had been opened long ago: confirmed, and its e-mail gone from the outbox.
    await env.db().update(user).set({ emailVerified: true }).where(eq(user.id, body.user.id));
    await env.db().delete(emailOutbox).where(eq(emailOutbox.toEmail, email.toLowerCase()));
  }
  return {
    id: body.user.id,
    email,
    name,
    password,
    cookie: sessionCookie(response.headers['set-cookie']),
    token: String(response.headers['set-auth-token'] ?? ''),
  };
}

/** Request headers that carry the user's session cookie. */
export function asUser(signedIn: TestUser): { cookie: string } {
  return { cookie: signedIn.cookie };
}

export interface QuickBuyer {
  id: string;
  email: string;
  name: string;
  /** For `Authorization: Bearer …`; better-auth's bearer plugin signs an unsigned token itself. */
  token: string;
}

/**
 * Many signed-in buyers at once: users and sessions inserted in two statements, because signing up
 * hundreds of accounts through password hashing would take longer than the test itself.
 */
export async function insertBuyers(db: Db, count: number, name = 'Quick Buyer'): Promise<QuickBuyer[]> {
  const buyers = Array.from({ length: count }, () => ({
    id: randomUUID(),
    email: `quick-${randomUUID()}@example.com`,
    name,
    token: randomBytes(24).toString('base64url'),
  }));
  await db.insert(user).values(buyers.map((b) => ({ id: b.id, name: b.name, email: b.email, emailVerified: true })));
  const expiresAt = new Date(Date.now() + 24 * 60 * 60 * 1000);
  await db.insert(session).values(buyers.map((b) => ({ id: randomUUID(), token: b.token, userId: b.id, expiresAt })));
  await db.insert(shipToAddresses).values(buyers.map((b) => ({ userId: b.id, address: TEST_SHIP_TO })));
  return buyers;
}

export function bearer(buyer: { token: string }): { authorization: string } {
  return { authorization: `Bearer ${buyer.token}` };
}

/** The newest e-mail queued for `to` whose subject starts with `subject`, as the outbox holds it. */
export async function queuedEmail(env: TestEnv, to: string, subject: string): Promise<{ id: string; body: string; carriesSecret: boolean } | undefined> {
  const [row] = await env
    .db()
    .select({ id: emailOutbox.id, body: emailOutbox.body, carriesSecret: emailOutbox.carriesSecret })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.toEmail, to.toLowerCase()), like(emailOutbox.subject, `${subject}%`)))
    .orderBy(desc(emailOutbox.createdAt))
    .limit(1);
  return row;
}

/** The first link to our site in an e-mail body. */
export function linkIn(body: string): URL {
  const match = /https?:\/\/\S+/.exec(body);
  if (!match) throw new Error(`no link in: ${body}`);
  return new URL(match[0]);
}

/** Signs in with email and password; the new session's cookie. */
export async function signIn(env: TestEnv, email: string, password: string): Promise<{ status: number; cookie: string | null }> {
  const response = await env.request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });
  const all = response.headers['set-cookie'];
  const list = Array.isArray(all) ? all : all ? [all] : [];
  const found = list.find((c) => c.startsWith('better-auth.session_token='));
  return { status: response.statusCode, cookie: found ? (found.split(';')[0] ?? null) : null };
}

/**
 * An operator as production makes one: sign-up at an address of ADMIN_EMAILS, then the password chosen
 * through the link the operator e-mail carries (which proves the mailbox), then a fresh sign-in.
 */
export async function signUpOperator(env: TestEnv, email: string, name = 'Operator One'): Promise<TestUser> {
  const first = await signUpUser(env, { name, email, emailVerified: false });
  const mail = await queuedEmail(env, email, 'Set your BulkCart operator password');
  if (!mail) throw new Error(`no operator e-mail queued for ${email}; is it in ADMIN_EMAILS?`);
  const token = linkIn(mail.body).searchParams.get('token');
  const password = 'Operat0rPass';
  const reset = await env.request({ method: 'POST', url: '/api/auth/reset-password', payload: { newPassword: password, token } });
  if (reset.statusCode !== 200) throw new Error(`operator reset failed: ${reset.statusCode} ${reset.body}`);
  const signedIn = await env.request({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });
  return { ...first, password, cookie: sessionCookie(signedIn.headers['set-cookie']), token: String(signedIn.headers['set-auth-token'] ?? '') };
}
