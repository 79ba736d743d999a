import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  json<T = unknown>(): T;
}

export interface HttpRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
  agent?: http.Agent;
  timeoutMs?: number;
}

/**
 * One HTTP request over a real socket. Resolves with the answer, or rejects when the connection fails
 * or is cut (a killed server): the caller then does not know whether the request took effect.
 */
export function send(baseUrl: string, request: HttpRequest): Promise<HttpAnswer> {
  const url = new URL(request.path, baseUrl);
  const payload = request.body === undefined ? undefined : JSON.stringify(request.body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: request.method,
        agent: request.agent ?? false,
        headers: {
          accept: 'application/json',
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...request.headers,
        },
        timeout: request.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json: <T>() => JSON.parse(body) as T });
        });
        res.on('aborted', () => reject(new Error('response aborted')));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request timed out')));
    req.on('error', reject);
    req.end(payload);
  });
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export interface Account {
  email: string;
  token: string;
}

/** Signs up through the real API; browsers send Origin on POST and better-auth insists on it. */
export async function signUp(baseUrl: string, name: string, email: string): Promise<Account> {
  const answer = await send(baseUrl, {
    method: 'POST',
    path: '/api/auth/sign-up/email',
    headers: { origin: baseUrl },
    body: { name, email, password: 'Passw0rd' },
  });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status} ${answer.body}`);
  const token = answer.headers['set-auth-token'];
  if (typeof token !== 'string' || !token) throw new Error('sign-up gave no bearer token');
  // Every order ships somewhere (docs/decisions/012-order-workflow.md): the account saves an address first.
  const saved = await send(baseUrl, {
    method: 'PUT',
    path: '/api/account/ship-to',
    headers: { origin: baseUrl, authorization: `Bearer ${token}` },
    body: { company: `${name} Ltd`, line1: '1 Resilience Way', city: 'Portland', region: 'OR', postalCode: '97201', country: 'US', phone: '+1 503 555 0100' },
  });
  if (saved.status !== 200) throw new Error(`saving the ship-to failed: ${saved.status} ${saved.body}`);
  return { email, token };
}

/** Follows `Link: <…>; rel="next"` to the end of a list, as the web client does. */
export async function readWholeList<T>(baseUrl: string, firstPath: string, headers: Record<string, string>): Promise<T[]> {
  const items: T[] = [];
  let path: string | null = firstPath;
  for (let pages = 0; path; pages++) {
    if (pages > 10_000) throw new Error('list does not end');
    const answer = await send(baseUrl, { method: 'GET', path, headers });
    if (answer.status !== 200) throw new Error(`GET ${path} → ${answer.status} ${answer.body}`);
    items.push(...answer.json<T[]>());
    const link = answer.headers.link;
    path = typeof link === 'string' ? (/^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null) : null;
  }
  return items;
}
