import { expect, request, type APIRequestContext } from '@playwright/test';
import type { Verification } from '@bulkcart/contracts/business';

/** Business verification in journeys (docs/decisions/014-business-verification.md). */

export const DEMO_OPERATOR = { email: 'admin@bulkcart.demo', password: 'DemoAdmin1' };

/** A real, small PDF permit (one page), built here so no fixture file is needed. */
export function permitPdf(padTo = 0): Buffer {
  const head =
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n';
  const tail = '%%EOF\n';
  return Buffer.concat([Buffer.from(head), Buffer.alloc(Math.max(0, padTo - head.length - tail.length), 0x25), Buffer.from(tail)]);
}

export function businessBody(legalName: string) {
  const expires = new Date();
  expires.setUTCFullYear(expires.getUTCFullYear() + 1);
  return {
    legalName,
    businessType: 'retail_store',
    permitNumber: 'SR-2026-0042',
    permitRegion: 'California',
    permitExpires: expires.toISOString().slice(0, 10),
    address: { company: legalName, line1: '5 Main Street', city: 'Oakland', region: 'CA', postalCode: '94607', country: 'US', phone: '+1 510 555 0101' },
  };
}

/** The demo operator's own session, apart from the page's. */
export async function operatorContext(baseURL: string): Promise<APIRequestContext> {
  const context = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  const signedIn = await context.post('/api/auth/sign-in/email', { data: DEMO_OPERATOR });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  return context;
}

/** The pending verification of `email`, read through the queue as the operator sees it. */
export async function findPending(operator: APIRequestContext, email: string): Promise<Verification> {
  let url: string | null = '/api/admin/verifications?status=pending&limit=100';
  while (url) {
    const response: Awaited<ReturnType<APIRequestContext['get']>> = await operator.get(url);
    expect(response.status()).toBe(200);
    const found = ((await response.json()) as Verification[]).find((v) => v.email === email);
    if (found) return found;
    url = /<([^>]+)>; rel="next"/.exec(response.headers().link ?? '')?.[1] ?? null;
  }
  throw new Error(`${email} is not in the queue`);
}

/** The whole review through the API: the user submits (their session, `page`), the operator approves. */
export async function verifyBusinessViaApi(userRequest: APIRequestContext, baseURL: string, email: string): Promise<void> {
  const headers = { origin: baseURL };
  expect((await userRequest.put('/api/business', { data: businessBody('E2E Trading Co'), headers })).status()).toBe(200);
  const uploaded = await userRequest.post('/api/business/document', {
    multipart: { document: { name: 'permit.pdf', mimeType: 'application/pdf', buffer: permitPdf() } },
    headers,
  });
  expect(uploaded.status(), await uploaded.text()).toBe(200);
  const operator = await operatorContext(baseURL);
  try {
    const pending = await findPending(operator, email);
    expect((await operator.post(`/api/admin/verifications/${pending._id}/approve`, { data: { revision: pending.revision } })).status()).toBe(200);
  } finally {
    await operator.dispose();
  }
}
