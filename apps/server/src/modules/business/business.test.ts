import { PassThrough } from 'node:stream';
import { beforeAll, expect, it, vi } from 'vitest';
import { eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import {
  latestPermitExpiry,
  PERMIT_MAX_YEARS,
  SUBMISSION_CHANGED,
  type AuditEntry,
  type BusinessProfile,
  type MeResponse,
  type Notification,
  type Order,
  type Sale,
  type Verification,
} from '@bulkcart/contracts';
import { describeEachDatabase, type TestEnv } from '../../../test/helpers/test-app.ts';
import { asUser, signUpOperator, signUpUser, type TestUser } from '../../../test/helpers/accounts.ts';
import { validProductBody } from '../../../test/helpers/products.ts';
import {
  dayFromToday,
  markVerified,
  multipartBody,
  OPERATOR_EMAIL,
  tinyJpeg,
  tinyPdf,
  tinyPng,
  tinyWebp,
  validBusinessBody,
} from '../../../test/helpers/business.ts';
import { businessDocuments, businessProfiles, verificationAudit } from '../../db/schema/business.ts';
import { DOCUMENT_UPLOADS_AT_ONCE, DOCUMENT_UPLOADS_PER_HOUR, documentUploadsInFlight } from './business.routes.ts';
import { emailOutbox, notifications } from '../../db/schema/orders.ts';
import { DOCUMENT_REFUSALS } from './document-sniff.ts';
import { samePermitQuery } from './admin.service.ts';
import { queryRows } from '../../db/rows.ts';

function saveProfile(env: TestEnv, user: TestUser, overrides: Record<string, unknown> = {}) {
  return env.request({ method: 'PUT', url: '/api/business', headers: asUser(user), payload: validBusinessBody(overrides) });
}

function upload(env: TestEnv, user: TestUser, file: Buffer, options: Parameters<typeof multipartBody>[1] = {}) {
  const body = multipartBody(file, options);
  return env.request({ method: 'POST', url: '/api/business/document', headers: { ...asUser(user), ...body.headers }, payload: body.payload });
}

async function statusOf(env: TestEnv, user: TestUser): Promise<BusinessProfile> {
  const response = await env.request({ method: 'GET', url: '/api/business', headers: asUser(user) });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as BusinessProfile;
}

/** A profile's current revision; null for an id that is not one (a malformed or unknown id). */
async function revisionOf(env: TestEnv, id: string): Promise<string | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await env.db().select({ revision: businessProfiles.revision }).from(businessProfiles).where(eq(businessProfiles.id, id));
  return row?.revision ?? null;
}

/** The operator's view of one buyer's entry in the pending queue, read page by page as the page does. */
async function queueEntry(env: TestEnv, operator: TestUser, email: string): Promise<Verification> {
  let url: string | null = '/api/admin/verifications?status=pending&limit=100';
  for (let pages = 0; url && pages < 50; pages++) {
    const response = await env.request({ method: 'GET', url, headers: asUser(operator) });
    expect(response.statusCode, response.body).toBe(200);
    const found = (response.json() as Verification[]).find((v) => v.email === email);
    if (found) return found;
    url = /<([^>]+)>; rel="next"/.exec(String(response.headers.link ?? ''))?.[1] ?? null;
  }
  throw new Error(`${email} is not in the queue`);
}

async function verificationId(env: TestEnv, user: TestUser): Promise<string> {
  const [row] = await env.db().select({ id: businessProfiles.id }).from(businessProfiles).where(eq(businessProfiles.userId, user.id));
  if (!row) throw new Error('no profile');
  return row.id;
}

describeEachDatabase(
  'business verification',
  (env) => {
    let operator: TestUser;
    beforeAll(async () => {
      operator = await signUpOperator(env(), OPERATOR_EMAIL);
    });

    /** The revision the queue shows now, as an operator who just opened the entry has it. */
    const currentRevision = async (id: string): Promise<string | undefined> => (await revisionOf(env(), id)) ?? undefined;
    const approve = async (id: string, revision?: string) =>
      env().request({
        method: 'POST',
        url: `/api/admin/verifications/${id}/approve`,
        headers: asUser(operator),
        payload: { revision: revision ?? (await currentRevision(id)) },
      });
    const reject = async (id: string, reason: string, revision?: string) =>
      env().request({
        method: 'POST',
        url: `/api/admin/verifications/${id}/reject`,
        headers: asUser(operator),
        payload: { reason, revision: revision ?? (await currentRevision(id)) },
      });

    it('goes none → pending → verified → pending (new permit number) → rejected (reason) → pending (new document) → verified', async () => {
      const buyer = await signUpUser(env(), { name: 'Status Buyer' });
      expect(await statusOf(env(), buyer)).toMatchObject({ status: 'none', profile: null, document: null });

      // Details alone are not a submission; a document without details is refused.
      const early = await upload(env(), buyer, tinyPdf());
      expect(early.statusCode).toBe(409);
      expect((await saveProfile(env(), buyer)).json()).toMatchObject({ status: 'none', profile: { permitNumber: 'SR-123456' } });

      const uploaded = await upload(env(), buyer, tinyPdf(), { filename: 'my permit.pdf' });
      expect(uploaded.statusCode, uploaded.body).toBe(200);
      expect(uploaded.json()).toMatchObject({ status: 'pending', document: { name: 'my permit.pdf', type: 'application/pdf' } });

      const id = await verificationId(env(), buyer);
      expect((await approve(id)).json()).toMatchObject({ _id: id, status: 'verified', email: buyer.email });
      expect((await statusOf(env(), buyer)).status).toBe('verified');

      // The type and address are not what the operator vouched for; the legal name and the permit are.
      const moved = validBusinessBody().address as Record<string, unknown>;
      expect((await saveProfile(env(), buyer, { businessType: 'other', address: { ...moved, line1: '7 Dock Road' } })).json()).toMatchObject({
        status: 'verified',
      });
      expect(
        (await saveProfile(env(), buyer, { businessType: 'other', address: { ...moved, line1: '7 Dock Road' }, legalName: 'Corner Shop Limited' })).json(),
      ).toMatchObject({
        status: 'pending',
      });
      expect((await approve(id)).json()).toMatchObject({ status: 'verified', profile: { legalName: 'Corner Shop Limited' } });
      expect((await saveProfile(env(), buyer, { permitNumber: 'SR-999999' })).json()).toMatchObject({ status: 'pending' });

      const rejected = await reject(id, 'The permit number does not match the document.');
      expect(rejected.json()).toMatchObject({ status: 'rejected', reason: 'The permit number does not match the document.' });
      expect(await statusOf(env(), buyer)).toMatchObject({ status: 'rejected', reason: 'The permit number does not match the document.' });

      expect((await upload(env(), buyer, tinyPng(), { filename: 'scan.png', type: 'image/png' })).json()).toMatchObject({ status: 'pending', reason: null });
      expect((await approve(id)).statusCode).toBe(200);
      // A new document after verification asks for a new review.
      expect((await upload(env(), buyer, tinyJpeg(), { filename: 'photo.jpg', type: 'image/jpeg' })).json()).toMatchObject({ status: 'pending' });
      expect((await upload(env(), buyer, tinyWebp(), { filename: 'photo.webp', type: 'image/webp' })).json()).toMatchObject({
        status: 'pending',
        document: { type: 'image/webp' },
      });
    });

    it('refuses a decision on a verification that is not pending (409) and an unknown or malformed id (404)', async () => {
      const buyer = await signUpUser(env(), { name: 'Twice Buyer' });
      await saveProfile(env(), buyer);
      await upload(env(), buyer, tinyPdf());
      const id = await verificationId(env(), buyer);
      expect((await approve(id)).statusCode).toBe(200);
      const again = await reject(id, 'Changed my mind');
      expect(again.statusCode).toBe(409);
      expect((await statusOf(env(), buyer)).status).toBe('verified');
      expect((await approve('00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await approve('not-an-id')).statusCode).toBe(404);
      expect((await reject(id, '   ')).statusCode).toBe(422);
    });

    it("refuses an operator's cookie-carrying decision from a foreign origin (403) and changes nothing", async () => {
      const buyer = await signUpUser(env(), { name: 'Cross Site Buyer' });
      await saveProfile(env(), buyer);
      await upload(env(), buyer, tinyPdf());
      const id = await verificationId(env(), buyer);
      const forged = await env().request({
        method: 'POST',
        url: `/api/admin/verifications/${id}/approve`,
        headers: { ...asUser(operator), origin: 'https://evil.example' },
      });
      expect(forged.statusCode).toBe(403);
      expect((await statusOf(env(), buyer)).status).toBe('pending');
      // A non-operator from a foreign origin meets the 404 first: the route is not there for them.
      const hidden = await env().request({
        method: 'POST',
        url: `/api/admin/verifications/${id}/approve`,
        headers: { ...asUser(buyer), origin: 'https://evil.example' },
      });
      expect(hidden.statusCode).toBe(404);
    });

    it('validates the profile with the shared schema: every missing field named, an expired permit refused', async () => {
      const buyer = await signUpUser(env(), { name: 'Invalid Buyer' });
      const response = await env().request({
        method: 'PUT',
        url: '/api/business',
        headers: asUser(buyer),
        payload: { businessType: 'bakery', permitExpires: dayFromToday(-1), address: {} },
      });
      expect(response.statusCode).toBe(422);
      const fields = Object.keys((response.json() as { error: { fieldErrors: Record<string, string[]> } }).error.fieldErrors);
      expect(fields).toEqual(
        expect.arrayContaining(['legalName', 'businessType', 'permitNumber', 'permitRegion', 'permitExpires', 'address.line1', 'address.country']),
      );
      expect(await statusOf(env(), buyer)).toMatchObject({ status: 'none', profile: null });
    });

    it('refuses files by their bytes (415, nothing stored) and files over 5 MB (413), and keeps one of exactly 5 MB', async () => {
      const buyer = await signUpUser(env(), { name: 'Sniff Buyer' });
      await saveProfile(env(), buyer);
      const truncatedPng = tinyPng().subarray(0, 40);
      const refusals: Array<[string, Buffer, string]> = [
        ['HTML named .pdf', Buffer.from('<!doctype html><script>alert(document.cookie)</script>'), DOCUMENT_REFUSALS.markup],
        ['SVG named .pdf', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), DOCUMENT_REFUSALS.markup],
        ['a PDF behind an HTML prefix', Buffer.concat([Buffer.from('<html><body><script>alert(1)</script>\n'), tinyPdf()]), DOCUMENT_REFUSALS.markup],
        ['an empty file', Buffer.alloc(0), DOCUMENT_REFUSALS.empty],
        ['a truncated PNG', truncatedPng, DOCUMENT_REFUSALS.truncated('PNG')],
        ['plain text', Buffer.from('just some words'), DOCUMENT_REFUSALS.unknown],
      ];
      for (const [what, bytes, message] of refusals) {
        const response = await upload(env(), buyer, bytes, { filename: 'permit.pdf', type: 'application/pdf' });
        expect(response.statusCode, what).toBe(415);
        expect(response.json(), what).toMatchObject({ error: { code: 'UNSUPPORTED_MEDIA_TYPE', message } });
      }
      expect(await statusOf(env(), buyer)).toMatchObject({ status: 'none', document: null });

      const justOver = await upload(env(), buyer, tinyPdf(5 * 1024 * 1024 + 1));
      expect(justOver.statusCode).toBe(413);
      expect(justOver.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('5 MB') } });
      const declaredHuge = await upload(env(), buyer, tinyPdf(7 * 1024 * 1024));
      expect(declaredHuge.statusCode).toBe(413);
      expect(await statusOf(env(), buyer)).toMatchObject({ status: 'none', document: null });

      const notMultipart = await env().request({ method: 'POST', url: '/api/business/document', headers: asUser(buyer), payload: { document: 'x' } });
      expect(notMultipart.statusCode).toBe(415);
      const wrongField = await upload(env(), buyer, tinyPdf(), { field: 'file' });
      expect(wrongField.statusCode).toBe(422);

      const exactly = await upload(env(), buyer, tinyPdf(5 * 1024 * 1024));
      expect(exactly.statusCode, exactly.body).toBe(200);
      expect(exactly.json()).toMatchObject({ status: 'pending', document: { size: 5 * 1024 * 1024 } });
    });

    it("serves the owner's document as a sandboxed attachment, and nobody else's under any id or spelling", async () => {
      const owner = await signUpUser(env(), { name: 'Document Owner' });
      const other = await signUpUser(env(), { name: 'Document Other' });
      await saveProfile(env(), owner);
      const html = '%PDF-1.4\n<script>alert(1)</script>\n%%EOF\n';
      expect((await upload(env(), owner, Buffer.from(html), { filename: '<img src=x onerror=alert(1)>.html' })).statusCode).toBe(200);

      const own = await env().request({ method: 'GET', url: '/api/business/document', headers: asUser(owner) });
      expect(own.statusCode).toBe(200);
      expect(own.rawPayload.toString('latin1')).toBe(html);
      expect(own.headers).toMatchObject({
        'content-type': 'application/pdf',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'",
      });
      expect(own.headers['content-disposition']).toMatch(/^attachment; filename="_img src_x onerror_alert_1_.pdf"/);

      const id = await verificationId(env(), owner);
      const attempts = [
        '/api/business/document',
        `/api/business/document?userId=${owner.id}`,
        `/api/business/document/${id}`,
        `/api/business/${owner.id}/document`,
        `/api/admin/verifications/${id}/document`,
        `/api/admin/verifications/${id.toUpperCase()}/document`,
        `/API/admin/verifications/${id}/document`,
        `/%61pi/admin/verifications/${id}/document`,
        `/api/%61dmin/verifications/${id}/document`,
        `/api/admin//verifications/${id}/document`,
        `/api/admin/x/../verifications/${id}/document`,
        `/api/admin/verifications/${encodeURIComponent(id)}/document?as=${OPERATOR_EMAIL}`,
      ];
      for (const url of attempts) {
        for (const headers of [asUser(other), {}]) {
          const response = await env().request({ method: 'GET', url, headers });
          // A path the API does not know may be the web app's page (SPA fallback), never the file.
          expect(response.rawPayload.toString('latin1'), url).not.toContain('alert(1)');
          expect(response.headers['content-disposition'], url).toBeUndefined();
          if (url.startsWith('/api/') || url.startsWith('/%61pi/')) expect(response.statusCode, url).toBeGreaterThanOrEqual(400);
        }
      }
      // The operator may read it, as an attachment too.
      const reviewed = await env().request({ method: 'GET', url: `/api/admin/verifications/${id}/document`, headers: asUser(operator) });
      expect(reviewed.statusCode).toBe(200);
      expect(reviewed.headers['content-disposition']).toMatch(/^attachment;/);
      expect(reviewed.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
      // …and look at it in the page: inline, still sandboxed and unsniffed, framable by this site only.
      const preview = await env().request({ method: 'GET', url: `/api/admin/verifications/${id}/preview`, headers: asUser(operator) });
      expect(preview.statusCode).toBe(200);
      expect(preview.rawPayload.toString('latin1')).toBe(html);
      expect(preview.headers).toMatchObject({
        'content-type': 'application/pdf',
        'x-content-type-options': 'nosniff',
        'content-security-policy': "sandbox; default-src 'none'; frame-ancestors 'self'",
        'cross-origin-resource-policy': 'same-origin',
        'cache-control': 'private, no-store',
      });
      expect(preview.headers['content-disposition']).toMatch(/^inline; filename="_img src_x onerror_alert_1_.pdf"/);
      for (const headers of [asUser(owner), asUser(other), {}]) {
        const hidden = await env().request({ method: 'GET', url: `/api/admin/verifications/${id}/preview`, headers });
        expect(hidden.statusCode).toBe(404);
        expect(hidden.rawPayload.toString('latin1')).not.toContain('alert(1)');
      }
    });

    it('lists the queue oldest submission first, paged with a Link header, with the email and profile', async () => {
      const buyers = await Promise.all([1, 2, 3].map((n) => signUpUser(env(), { name: `Queue Buyer ${n}` })));
      for (const buyer of buyers) {
        await saveProfile(env(), buyer);
        await upload(env(), buyer, tinyPdf());
      }
      const seen: Verification[] = [];
      let url: string | null = '/api/admin/verifications?status=pending&limit=2';
      for (let pages = 0; url && pages < 50; pages++) {
        const response = await env().request({ method: 'GET', url, headers: asUser(operator) });
        expect(response.statusCode, response.body).toBe(200);
        seen.push(...(response.json() as Verification[]));
        url = /<([^>]+)>; rel="next"/.exec(String(response.headers.link ?? ''))?.[1] ?? null;
      }
      const mine = seen.filter((v) => buyers.some((b) => b.email === v.email));
      expect(mine.map((v) => v.email)).toEqual(buyers.map((b) => b.email));
      expect(mine[0]).toMatchObject({ status: 'pending', profile: { legalName: 'Corner Shop Ltd' }, document: { type: 'application/pdf' } });
      expect(seen.every((v) => v.status === 'pending')).toBe(true);
      expect((await env().request({ method: 'GET', url: '/api/admin/verifications?status=bogus', headers: asUser(operator) })).statusCode).toBe(422);
    });

    it('flags, on each queue entry, the other accounts that submitted the same permit number (any case, spaces or dashes), newest first, at most 5', async () => {
      const tag = Math.random().toString(36).slice(2, 8).toUpperCase();
      const submit = async (name: string, permitNumber: string, legalName = name) => {
        const buyer = await signUpUser(env(), { name });
        await saveProfile(env(), buyer, { permitNumber, legalName });
        expect((await upload(env(), buyer, tinyPdf())).statusCode).toBe(200);
        return buyer;
      };
      const first = await submit('Permit First', `DUP-${tag}-1`, 'First Traders');
      const second = await submit('Permit Second', `dup ${tag.toLowerCase()} 1`, 'Second Traders');
      const other = await submit('Permit Other', `DUP-${tag}-2`);
      // Saved but never submitted (no document): not a submission, so not named.
      const drafted = await signUpUser(env(), { name: 'Permit Draft' });
      expect((await saveProfile(env(), drafted, { permitNumber: `DUP-${tag}-1` })).statusCode).toBe(200);

      const account = (buyer: TestUser, legalName: string) => ({ email: buyer.email, legalName, permitRegion: 'California', status: 'pending' });
      expect((await queueEntry(env(), operator, first.email)).samePermit).toEqual({ accounts: [account(second, 'Second Traders')], more: false });
      expect((await queueEntry(env(), operator, second.email)).samePermit).toEqual({ accounts: [account(first, 'First Traders')], more: false });
      expect((await queueEntry(env(), operator, other.email)).samePermit).toEqual({ accounts: [], more: false });

      // A decision's answer carries the flag too, and a reviewed account is still named, with its status.
      const approved = await approve(await verificationId(env(), first));
      expect(approved.json()).toMatchObject({ status: 'verified', samePermit: { accounts: [account(second, 'Second Traders')], more: false } });
      expect((await queueEntry(env(), operator, second.email)).samePermit.accounts).toEqual([{ ...account(first, 'First Traders'), status: 'verified' }]);

      // Five more with that permit: second's entry names the five newest submissions and says there are more.
      const later: TestUser[] = [];
      for (const n of [1, 2, 3, 4, 5]) later.push(await submit(`Permit Later ${n}`, `DUP${tag}1`, `Later ${n}`));
      const flagged = (await queueEntry(env(), operator, second.email)).samePermit;
      expect(flagged.more).toBe(true);
      expect(flagged.accounts.map((a) => a.email)).toEqual(later.map((b) => b.email).reverse());

      // Each entry's lookup reads business_profiles_permit_idx (the table is small, so the planner is
      // asked what it can use with sequential scans off).
      const secondId = await verificationId(env(), second);
      const plan = await env()
        .db()
        .transaction(async (tx) => {
          await tx.execute(sql`SET LOCAL enable_seqscan = off`);
          const rows = await queryRows<Record<string, string>>(tx, sql`EXPLAIN ${samePermitQuery([secondId])}`);
          return rows.map((row) => Object.values(row)[0]).join('\n');
        });
      expect(plan).toContain('business_profiles_permit_idx');
    });

    it('writes every decision to the audit log (who, when, what, why), newest first, with no way to change it', async () => {
      const [first, second] = await Promise.all([signUpUser(env(), { name: 'Audit Buyer A' }), signUpUser(env(), { name: 'Audit Buyer B' })]);
      for (const buyer of [first, second]) {
        await saveProfile(env(), buyer);
        await upload(env(), buyer, tinyPdf());
      }
      const before = await env().db().select({ id: verificationAudit.id }).from(verificationAudit);
      await approve(await verificationId(env(), first));
      await reject(await verificationId(env(), second), 'Blurry scan');
      const response = await env().request({ method: 'GET', url: '/api/admin/audit?limit=2', headers: asUser(operator) });
      expect(response.statusCode).toBe(200);
      const [latest, earlier] = response.json() as AuditEntry[];
      expect(latest).toMatchObject({ action: 'reject', actorEmail: OPERATOR_EMAIL, subjectEmail: second.email, reason: 'Blurry scan' });
      expect(earlier).toMatchObject({ action: 'approve', actorEmail: OPERATOR_EMAIL, subjectEmail: first.email, reason: null });
      expect(Date.parse(latest?.at ?? '')).toBeGreaterThanOrEqual(Date.parse(earlier?.at ?? ''));
      const after = await env().db().select({ id: verificationAudit.id }).from(verificationAudit);
      expect(after.length - before.length).toBe(2);
      // A refused decision writes nothing.
      await approve(await verificationId(env(), first));
      expect((await env().db().select({ id: verificationAudit.id }).from(verificationAudit)).length).toBe(after.length);
      for (const method of ['PUT', 'PATCH', 'DELETE', 'POST'] as const) {
        // The trail is read-only: no method but GET exists on it, which an operator is told (405).
        const changed = await env().request({ method, url: `/api/admin/audit`, headers: asUser(operator), payload: {} });
        expect(changed.statusCode, method).toBe(405);
        expect(changed.headers.allow, method).toBe('GET, HEAD');
      }
      expect((await env().db().select({ id: verificationAudit.id }).from(verificationAudit)).length).toBe(after.length);
    });

    it('tells the buyer of each decision (a rejection with its reason), and of a refused one nothing', async () => {
      const buyer = await signUpUser(env(), { name: 'Told Buyer' });
      await saveProfile(env(), buyer);
      await upload(env(), buyer, tinyPdf());
      const id = await verificationId(env(), buyer);
      const notices = async () => (await env().request({ method: 'GET', url: '/api/notifications', headers: asUser(buyer) })).json() as Notification[];

      // A stale click decides nothing and tells nobody.
      expect((await reject(id, 'Blurry', 'stale-revision')).statusCode).toBe(409);
      expect(await notices()).toEqual([]);

      const rejected = await reject(id, 'The permit number is unreadable.', (await queueEntry(env(), operator, buyer.email)).revision);
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect(await notices()).toEqual([
        expect.objectContaining({
          kind: 'verification-rejected',
          orderId: null,
          title: 'Your business verification was not approved',
          message: 'Reason: The permit number is unreadable. Correct your business profile or upload a new document to send it for review again.',
          read: false,
        }),
      ]);

      await upload(env(), buyer, tinyPdf(), { filename: 'clear.pdf' });
      const approved = await approve(id, (await queueEntry(env(), operator, buyer.email)).revision);
      expect(approved.statusCode, approved.body).toBe(200);
      const [latest] = await notices();
      expect(latest).toMatchObject({
        kind: 'verification-approved',
        orderId: null,
        title: 'Your business is verified',
        message: 'Wholesale volume prices now apply to your orders.',
      });

      // The e-mail beside each is verificationNotifier's (the expiry notices' test holds its outbox row).
    });

    it('decides only the revision the operator looked at: missing or stale is 409 "This submission changed since you opened it", and nothing is recorded', async () => {
      const buyer = await signUpUser(env(), { name: 'Swap Buyer' });
      await saveProfile(env(), buyer);
      await upload(env(), buyer, tinyPdf(), { filename: 'first.pdf' });
      const id = await verificationId(env(), buyer);
      const opened = await queueEntry(env(), operator, buyer.email);
      expect(opened.revision).toMatch(/^[0-9a-f]{32}$/);
      const auditRows = async () =>
        (await env().db().select({ id: verificationAudit.id }).from(verificationAudit).where(eq(verificationAudit.verificationId, id))).length;
      const refusedAsChanged = async (response: Awaited<ReturnType<typeof approve>>) => {
        expect(response.statusCode, response.body).toBe(409);
        expect(response.json()).toEqual({ error: { code: 'CONFLICT', title: SUBMISSION_CHANGED.title, message: SUBMISSION_CHANGED.message } });
        expect(response.json().error.message).toMatch(/^This submission changed since you opened it/);
        expect(await statusOf(env(), buyer)).toMatchObject({ status: 'pending', reviewedAt: null });
        expect(await auditRows()).toBe(0);
      };

      // No revision at all (an old client, or a forged call): refused, as a stale one is.
      await refusedAsChanged(await env().request({ method: 'POST', url: `/api/admin/verifications/${id}/approve`, headers: asUser(operator) }));
      await refusedAsChanged(await env().request({ method: 'POST', url: `/api/admin/verifications/${id}/approve`, headers: asUser(operator), payload: {} }));
      await refusedAsChanged(
        await env().request({ method: 'POST', url: `/api/admin/verifications/${id}/reject`, headers: asUser(operator), payload: { reason: 'No revision' } }),
      );
      await refusedAsChanged(await approve(id, 'not-a-revision'));

      // The buyer swaps the document after the operator opened the entry: the look is void.
      await upload(env(), buyer, tinyPng(), { filename: 'swapped.png', type: 'image/png' });
      const afterSwap = await queueEntry(env(), operator, buyer.email);
      expect(afterSwap.revision).not.toBe(opened.revision);
      await refusedAsChanged(await approve(id, opened.revision));
      await refusedAsChanged(await reject(id, 'Blurry', opened.revision));

      // A save that changes nothing keeps the revision; any change (here the address) takes a new one.
      await saveProfile(env(), buyer);
      expect((await queueEntry(env(), operator, buyer.email)).revision).toBe(afterSwap.revision);
      const moved = validBusinessBody().address as Record<string, unknown>;
      await saveProfile(env(), buyer, { address: { ...moved, city: 'Berkeley' } });
      const afterMove = await queueEntry(env(), operator, buyer.email);
      expect(afterMove.revision).not.toBe(afterSwap.revision);
      expect(afterMove.profile?.address.city).toBe('Berkeley');
      await refusedAsChanged(await approve(id, afterSwap.revision));

      // The revision the operator has now is decided, and the audit row names it.
      const approved = await approve(id, afterMove.revision);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ status: 'verified', revision: afterMove.revision, document: { name: 'swapped.png' } });
      const [audit] = await env().db().select().from(verificationAudit).where(eq(verificationAudit.verificationId, id));
      expect(audit).toMatchObject({ action: 'approve', revision: afterMove.revision });
      const listed = (await env().request({ method: 'GET', url: '/api/admin/audit?limit=5', headers: asUser(operator) })).json() as AuditEntry[];
      expect(listed.find((entry) => entry.verificationId === id)).toMatchObject({ action: 'approve', revision: afterMove.revision });
    });

    it('sends a verified buyer back to pending for a new legal name or permit number, and keeps them verified for a new type or address', async () => {
      const cases: Array<[string, Record<string, unknown>, 'verified' | 'pending']> = [
        ['legal name', { legalName: 'Renamed Trading Ltd' }, 'pending'],
        ['permit number', { permitNumber: 'SR-654321' }, 'pending'],
        ['issuing region', { permitRegion: 'Nevada' }, 'pending'],
        ['expiry', { permitExpires: dayFromToday(400) }, 'pending'],
        ['business type', { businessType: 'online_seller' }, 'verified'],
        ['address', { address: { ...(validBusinessBody().address as object), line2: 'Suite 9' } }, 'verified'],
      ];
      for (const [what, change, status] of cases) {
        const buyer = await signUpUser(env(), { name: `Repending Buyer ${what}` });
        await saveProfile(env(), buyer);
        await upload(env(), buyer, tinyPdf());
        const id = await verificationId(env(), buyer);
        expect((await approve(id)).statusCode, what).toBe(200);
        const before = await revisionOf(env(), id);
        const saved = await saveProfile(env(), buyer, change);
        expect(saved.statusCode, saved.body).toBe(200);
        expect(saved.json(), what).toMatchObject({ status });
        expect(await revisionOf(env(), id), what).not.toBe(before);
      }
    });

    it(`refuses a permit expiry more than ${PERMIT_MAX_YEARS} years ahead (422 on the field) and accepts the last day allowed`, async () => {
      const buyer = await signUpUser(env(), { name: 'Far Expiry Buyer' });
      const tooFar = new Date(`${latestPermitExpiry()}T00:00:00Z`);
      tooFar.setUTCDate(tooFar.getUTCDate() + 1);
      const refused = await saveProfile(env(), buyer, { permitExpires: tooFar.toISOString().slice(0, 10) });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.fieldErrors.permitExpires).toEqual([`An expiry more than ${PERMIT_MAX_YEARS} years ahead is not accepted: check the date`]);
      expect(await statusOf(env(), buyer)).toMatchObject({ status: 'none', profile: null });
      const accepted = await saveProfile(env(), buyer, { permitExpires: latestPermitExpiry() });
      expect(accepted.statusCode, accepted.body).toBe(200);
    });

    it('tells /api/me how the user is priced, and whether they are an operator', async () => {
      const buyer = await signUpUser(env(), { name: 'Me Buyer' });
      const me = (await env().request({ method: 'GET', url: '/api/me', headers: asUser(buyer) })).json() as MeResponse;
      expect(me).toMatchObject({ operator: false, verification: { mode: 'tiers', status: 'none', breaksApply: false, canOrder: true } });
      await markVerified(env(), buyer.id);
      const after = (await env().request({ method: 'GET', url: '/api/me', headers: asUser(buyer) })).json() as MeResponse;
      expect(after.verification).toMatchObject({ status: 'verified', breaksApply: true });
      const ops = (await env().request({ method: 'GET', url: '/api/me', headers: asUser(operator) })).json() as MeResponse;
      expect(ops.operator).toBe(true);
    });
  },
  { ADMIN_EMAILS: `someone@example.com, ${OPERATOR_EMAIL.toUpperCase()}` },
);

/** The wholesale ladder of docs/decisions/011: $10 base, $9 from 100, $8.10 from 500. */
const ladder = {
  price: 10,
  minquantity: 20,
  mainquantity: 100_000,
  discount: 0,
  tiers: [
    { minquantity: 100, price: 9 },
    { minquantity: 500, price: 8.1 },
  ],
};

async function listLadder(env: TestEnv): Promise<string> {
  const seller = await signUpUser(env, { name: 'Ladder Seller' });
  const response = await env.request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody(ladder) });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { _id: string })._id;
}

function buy(env: TestEnv, buyer: TestUser, productId: string, quantity: number) {
  return env.request({ method: 'POST', url: '/api/order', headers: asUser(buyer), payload: { productId, quantity } });
}

describeEachDatabase('what verification changes: tiers (the default)', (env) => {
  it('charges the same 500 units $10.00 each before verification and $8.10 each after', async () => {
    const productId = await listLadder(env());
    const buyer = await signUpUser(env(), { name: 'Tiers Buyer' });
    const before = await buy(env(), buyer, productId, 500);
    expect(before.statusCode, before.body).toBe(201);
    expect(before.json()).toMatchObject({ unitPrice: 10, total: 5000, tierMinquantity: null });
    await markVerified(env(), buyer.id);
    const after = await buy(env(), buyer, productId, 500);
    expect(after.json()).toMatchObject({ unitPrice: 8.1, total: 4050, tierMinquantity: 500 });
  });

  it('turns a buyer back when the permit expires: the sweep marks it, and the purchase never trusts a lapsed date', async () => {
    const productId = await listLadder(env());
    const buyer = await signUpUser(env(), { name: 'Lapsing Buyer' });
    await markVerified(env(), buyer.id, dayFromToday(0));
    // Expires today: not verified any more, even before a sweep has written it.
    expect((await buy(env(), buyer, productId, 500)).json()).toMatchObject({ unitPrice: 10 });
    const { runExpirySweep } = await import('./expiry-sweep.ts');
    const swept = await runExpirySweep(env().db());
    expect(swept.expired).toContain(buyer.id);
    const [row] = await env().db().select({ status: businessProfiles.status }).from(businessProfiles).where(eq(businessProfiles.userId, buyer.id));
    expect(row?.status).toBe('expired');
    expect(((await env().request({ method: 'GET', url: '/api/business', headers: asUser(buyer) })).json() as BusinessProfile).status).toBe('expired');
    expect(((await buy(env(), buyer, productId, 500)).json() as Order).unitPrice).toBe(10);
  });
});

describeEachDatabase("the seller's order desk: verified badge", (env) => {
  it('answers buyerVerified on the desk (list, one order, a move) and nothing new to the buyer', async () => {
    const seller = await signUpUser(env(), { name: 'Desk Seller' });
    const listed = await env().request({ method: 'POST', url: '/api/addproduct', headers: asUser(seller), payload: validProductBody(ladder) });
    expect(listed.statusCode, listed.body).toBe(201);
    const productId = (listed.json() as { _id: string })._id;
    const verified = await signUpUser(env(), { name: 'Verified Desk Buyer' });
    const plain = await signUpUser(env(), { name: 'Plain Desk Buyer' });
    const lapsed = await signUpUser(env(), { name: 'Lapsed Desk Buyer' });
    await markVerified(env(), verified.id);
    await markVerified(env(), lapsed.id, dayFromToday(0));
    const orderOf = async (buyer: TestUser) => {
      const response = await buy(env(), buyer, productId, 20);
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as Order;
    };
    const verifiedOrder = await orderOf(verified);
    const plainOrder = await orderOf(plain);
    const lapsedOrder = await orderOf(lapsed);
    expect(verifiedOrder).not.toHaveProperty('buyerVerified');

    const desk = await env().request({ method: 'GET', url: '/api/sales', headers: asUser(seller) });
    expect(desk.statusCode, desk.body).toBe(200);
    const badges = Object.fromEntries((desk.json() as Sale[]).map((sale) => [sale._id, sale.buyerVerified]));
    expect(badges).toEqual({ [verifiedOrder._id]: true, [plainOrder._id]: false, [lapsedOrder._id]: false });

    const one = (id: string) => env().request({ method: 'GET', url: `/api/sales/${id}`, headers: asUser(seller) });
    expect(((await one(verifiedOrder._id)).json() as Sale).buyerVerified).toBe(true);
    expect(((await one(plainOrder._id)).json() as Sale).buyerVerified).toBe(false);
    const accepted = await env().request({ method: 'POST', url: `/api/sales/${verifiedOrder._id}/accept`, headers: asUser(seller), payload: {} });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', buyerVerified: true });

    const buyerView = await env().request({ method: 'GET', url: `/api/order/${verifiedOrder._id}`, headers: asUser(verified) });
    expect(buyerView.statusCode, buyerView.body).toBe(200);
    expect(buyerView.json()).not.toHaveProperty('buyerVerified');
  });
});

describeEachDatabase('permit expiry notices', (env) => {
  it('notifies each buyer once 14 days before and once on the day, across two runs and two processes sweeping at once', async () => {
    const { runExpirySweep, WARN_DAYS } = await import('./expiry-sweep.ts');
    const soon = await signUpUser(env(), { name: 'Soon Buyer' });
    const later = await signUpUser(env(), { name: 'Later Buyer' });
    await markVerified(env(), soon.id, dayFromToday(WARN_DAYS));
    await markVerified(env(), later.id, dayFromToday(WARN_DAYS + 1));
    const calls: Array<[string, string]> = [];
    const notify = async (userId: string, notice: { kind: string }) => {
      if (userId === soon.id || userId === later.id) calls.push([userId, notice.kind]);
    };
    // A second process: its own connection to the same database (PostgreSQL), or the same one (PGlite).
    const { openDatabase } = await import('../../db/client.ts');
    const second = env().config.database.kind === 'postgres' ? await openDatabase(env().config.database) : null;
    const dbs = [env().db(), second?.db ?? env().db()];
    try {
      const sweepBoth = (now?: Date) => Promise.all(dbs.map((db) => runExpirySweep(db, { now, notify })));
      await sweepBoth();
      await sweepBoth();
      expect(calls).toEqual([[soon.id, 'verification-expiring']]);
      const inAWeek = new Date(Date.now() + 7 * 86_400_000);
      await sweepBoth(inAWeek);
      expect(calls).toEqual([
        [soon.id, 'verification-expiring'],
        [later.id, 'verification-expiring'],
      ]);
      const onTheDay = new Date(Date.now() + WARN_DAYS * 86_400_000);
      await sweepBoth(onTheDay);
      await sweepBoth(onTheDay);
      expect(calls).toEqual([
        [soon.id, 'verification-expiring'],
        [later.id, 'verification-expiring'],
        [soon.id, 'verification-expired'],
      ]);
      const [row] = await env().db().select({ status: businessProfiles.status }).from(businessProfiles).where(eq(businessProfiles.userId, soon.id));
      expect(row?.status).toBe('expired');
    } finally {
      await second?.close();
    }
  });

  it('writes each notice as a notification without an order, once, with its email to the outbox when mail is set', async () => {
    const { runExpirySweep, WARN_DAYS } = await import('./expiry-sweep.ts');
    const { verificationNotifier } = await import('../notifications/notify.ts');
    const buyer = await signUpUser(env(), { name: 'Notified Buyer' });
    await markVerified(env(), buyer.id, dayFromToday(WARN_DAYS));
    const notify = verificationNotifier({ ...env().config, mail: { smtpUrl: 'smtp://127.0.0.1:1', from: 'BulkCart <orders@example.com>' } });
    const mine = () => env().db().select().from(notifications).where(eq(notifications.userId, buyer.id)).orderBy(notifications.seq);
    await runExpirySweep(env().db(), { notify });
    await runExpirySweep(env().db(), { notify });
    expect((await mine()).map((n) => n.kind)).toEqual(['verification-expiring']);
    const onTheDay = new Date(Date.now() + WARN_DAYS * 86_400_000);
    await runExpirySweep(env().db(), { now: onTheDay, notify });
    await runExpirySweep(env().db(), { now: onTheDay, notify });
    const rows = await mine();
    expect(rows.map((n) => [n.kind, n.orderId, n.orderNumber, n.orderStatus])).toEqual([
      ['verification-expiring', null, null, null],
      ['verification-expired', null, null, null],
    ]);

    const listed = await env().request({ method: 'GET', url: '/api/notifications', headers: asUser(buyer) });
    expect(listed.statusCode, listed.body).toBe(200);
    const bell = listed.json() as Notification[];
    expect(bell).toHaveLength(2);
    expect(bell[0]).toMatchObject({ kind: 'verification-expired', orderId: null, orderNumber: null, orderStatus: null, read: false });
    expect(bell[1]).toMatchObject({ kind: 'verification-expiring', orderId: null, title: 'Your business permit expires soon' });
    const unread = await env().request({ method: 'GET', url: '/api/notifications/unread-count', headers: asUser(buyer) });
    expect(unread.json()).toEqual({ count: 2 });

    const emails = await env()
      .db()
      .select()
      .from(emailOutbox)
      .where(
        inArray(
          emailOutbox.notificationId,
          rows.map((n) => n.id),
        ),
      );
    expect(emails).toHaveLength(2);
    for (const email of emails) {
      expect(email.toEmail).toBe(buyer.email);
      expect(email.body).toContain(`${env().config.baseUrl}/business`);
    }
  });
});

describeEachDatabase(
  'what verification changes: required',
  (env) => {
    it('refuses unverified buyers with 403, a message and the way to /business, and changes nothing; verified buyers buy', async () => {
      const productId = await listLadder(env());
      const buyer = await signUpUser(env(), { name: 'Required Buyer' });
      const refused = await buy(env(), buyer, productId, 500);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN', title: 'Verification required', message: expect.stringContaining('/business') } });
      const stock = (await env().request({ method: 'GET', url: `/api/product/${productId}` })).json() as { mainquantity: number };
      expect(stock.mainquantity).toBe(100_000);
      await markVerified(env(), buyer.id);
      expect((await buy(env(), buyer, productId, 500)).json()).toMatchObject({ unitPrice: 8.1 });
    });
  },
  { BUYER_VERIFICATION: 'required' },
);

describeEachDatabase(
  'what verification changes: off',
  (env) => {
    it('gives every buyer the breaks', async () => {
      const productId = await listLadder(env());
      const buyer = await signUpUser(env(), { name: 'Off Buyer' });
      expect((await buy(env(), buyer, productId, 500)).json()).toMatchObject({ unitPrice: 8.1 });
    });
  },
  { BUYER_VERIFICATION: 'off' },
);

/** A multipart upload whose body the test feeds: it stays in flight until `finish` or `cut`. */
function openUpload(env: TestEnv, user: TestUser) {
  const boundary = `----held${Math.random().toString(16).slice(2)}`;
  const body = new PassThrough();
  body.write(`--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="held.pdf"\r\nContent-Type: application/pdf\r\n\r\n`);
  const answer = env.request({
    method: 'POST',
    url: '/api/business/document',
    headers: { ...asUser(user), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: body,
  });
  return {
    answer,
    finish() {
      body.end(Buffer.concat([tinyPdf(), Buffer.from(`\r\n--${boundary}--\r\n`)]));
      return answer;
    },
  };
}

describeEachDatabase('document uploads: bounded at once, and malformed bodies', (env) => {
  it(`reads at most ${DOCUMENT_UPLOADS_AT_ONCE} uploads at once per process: one more is a 503 with Retry-After, and a slot frees when one ends`, async () => {
    const buyers = await Promise.all(Array.from({ length: DOCUMENT_UPLOADS_AT_ONCE + 1 }, (_, n) => signUpUser(env(), { name: `Held Upload Buyer ${n}` })));
    for (const buyer of buyers) expect((await saveProfile(env(), buyer)).statusCode).toBe(200);
    const held = buyers.slice(0, DOCUMENT_UPLOADS_AT_ONCE).map((buyer) => openUpload(env(), buyer));
    await vi.waitFor(() => expect(documentUploadsInFlight(env().app)).toBe(DOCUMENT_UPLOADS_AT_ONCE), { timeout: 10_000 });

    const late = buyers[DOCUMENT_UPLOADS_AT_ONCE]!;
    const refused = await upload(env(), late, tinyPdf());
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toMatchObject({ error: { code: 'UNAVAILABLE', message: expect.stringContaining('Too many uploads') } });
    expect(await statusOf(env(), late)).toMatchObject({ status: 'none', document: null });

    const first = await held[0]!.finish();
    expect(first.statusCode, first.body).toBe(200);
    expect((await upload(env(), late, tinyPdf())).statusCode).toBe(200);
    for (const rest of held.slice(1)) expect((await rest.finish()).statusCode).toBe(200);
    expect(documentUploadsInFlight(env().app)).toBe(0);
  });

  it('answers a cut-off or malformed multipart body with 400 in the error shape, never a 500, and stores nothing', async () => {
    const buyer = await signUpUser(env(), { name: 'Malformed Upload Buyer' });
    await saveProfile(env(), buyer);
    const boundary = 'XyZbound';
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="p.pdf"\r\nContent-Type: application/pdf\r\n\r\n`;
    const cases: Array<[string, string, Buffer]> = [
      ['cut off inside the file', `multipart/form-data; boundary=${boundary}`, Buffer.concat([Buffer.from(head), tinyPdf().subarray(0, 50)])],
      ['cut off inside a part header', `multipart/form-data; boundary=${boundary}`, Buffer.from(`--${boundary}\r\nContent-Disposition: form-da`)],
      ['no boundary parameter', 'multipart/form-data', Buffer.concat([Buffer.from(head), tinyPdf(), Buffer.from(`\r\n--${boundary}--\r\n`)])],
      ['not multipart inside', `multipart/form-data; boundary=${boundary}`, Buffer.from('hello world')],
      ['a boundary over 70 characters', `multipart/form-data; boundary=${'x'.repeat(200)}`, Buffer.from('x')],
    ];
    for (const [what, contentType, payload] of cases) {
      const response = await env().request({
        method: 'POST',
        url: '/api/business/document',
        headers: { ...asUser(buyer), 'content-type': contentType },
        payload,
      });
      expect(response.statusCode, what).toBe(400);
      expect(response.json(), what).toEqual({
        error: { code: 'BAD_REQUEST', title: 'Upload cut off or malformed', message: 'The upload was cut off or malformed. Try again.' },
      });
    }
    expect(await statusOf(env(), buyer)).toMatchObject({ status: 'none', document: null });
    expect(
      await env()
        .db()
        .select({ id: businessDocuments.profileId })
        .from(businessDocuments)
        .innerJoin(businessProfiles, eq(businessProfiles.id, businessDocuments.profileId))
        .where(eq(businessProfiles.userId, buyer.id)),
    ).toEqual([]);
  });

  it('keeps one document row per profile, replaced in place, and the profile row without the bytes', async () => {
    const buyer = await signUpUser(env(), { name: 'Replacing Buyer' });
    await saveProfile(env(), buyer);
    for (const size of [2000, 3000, 4000]) expect((await upload(env(), buyer, tinyPdf(size))).statusCode).toBe(200);
    const id = await verificationId(env(), buyer);
    const rows = await env().db().select({ bytes: businessDocuments.bytes }).from(businessDocuments).where(eq(businessDocuments.profileId, id));
    expect(rows.map((r) => r.bytes.length)).toEqual([4000]);
    const own = await env().request({ method: 'GET', url: '/api/business/document', headers: asUser(buyer) });
    expect(own.rawPayload.length).toBe(4000);
    const profileColumns = Object.keys(getTableColumns(businessProfiles));
    expect(profileColumns).not.toContain('document');
  });
});

describeEachDatabase(
  'document uploads: limited per account',
  (env) => {
    it(`lets one account start ${DOCUMENT_UPLOADS_PER_HOUR} uploads an hour: the next is a 429 with Retry-After and stores nothing; another account is not held up`, async () => {
      const buyer = await signUpUser(env(), { name: 'Busy Uploader' });
      const other = await signUpUser(env(), { name: 'Other Uploader' });
      await saveProfile(env(), buyer);
      await saveProfile(env(), other);
      // Refused files count too: each one was read and checked.
      expect((await upload(env(), buyer, Buffer.from('<html></html>'))).statusCode).toBe(415);
      for (let n = 1; n < DOCUMENT_UPLOADS_PER_HOUR; n++) {
        const response = await upload(env(), buyer, tinyPdf(), { filename: `permit-${n}.pdf` });
        expect(response.statusCode, `upload ${n}`).toBe(200);
      }
      const refused = await upload(env(), buyer, tinyPng(), { filename: 'one-too-many.png', type: 'image/png' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({
        error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many document uploads from this account\. Try again in \d+ seconds\.$/) },
      });
      const wait = Number(refused.headers['retry-after']);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(3600);
      expect(await statusOf(env(), buyer)).toMatchObject({ document: { name: `permit-${DOCUMENT_UPLOADS_PER_HOUR - 1}.pdf` } });
      expect((await upload(env(), other, tinyPdf())).statusCode).toBe(200);
    });
  },
  { RATE_LIMIT: 'true' },
);
