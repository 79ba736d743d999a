import http from 'node:http';

export interface HttpAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface HttpRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  agent?: http.Agent;
}

/**
 * One plain HTTP/1.1 request. node:http rather than fetch: fetch adds `accept-encoding`, and the read
 * ceiling must copy the exact identity-encoded bytes a benchmark client is sent.
 */
export function httpRequest(url: string, options: HttpRequestOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const body = options.body === undefined ? undefined : Buffer.from(options.body);
    const request = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: options.agent,
        headers: {
          ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error(`timeout: ${options.method ?? 'GET'} ${url}`)));
    request.on('error', reject);
    request.end(body);
  });
}

export async function requestJson<T>(url: string, options: HttpRequestOptions = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; json: T }> {
  const answer = await httpRequest(url, options);
  if (answer.status >= 400) {
    throw new Error(`${options.method ?? 'GET'} ${url} → ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
  }
  return { status: answer.status, headers: answer.headers, json: JSON.parse(answer.body.toString('utf8')) as T };
}

/** The `rel="next"` target of a Link header, as a path. */
export function readNextLink(headers: http.IncomingHttpHeaders): string | null {
  const link = headers.link;
  if (typeof link !== 'string') return null;
  return /^<([^>]+)>; rel="next"$/.exec(link)?.[1] ?? null;
}
