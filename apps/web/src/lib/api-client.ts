import type { ApiErrorBody } from '@bulkcart/contracts/errors';

/** An error answer from our API, carrying the server's title, message and per-field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiPage<T> {
  items: T[];
  /** The cursor of the next page, from the `Link: <…>; rel="next"` header; null on the last page. */
  nextCursor: string | null;
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

async function send(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      credentials: 'same-origin',
      headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Error', 'Cannot reach the server. Check your connection and try again.');
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const data = (await response.json()) as Partial<ApiErrorBody> & { message?: string; code?: string };
    if (data.error) {
      return new ApiError(response.status, data.error.code, data.error.title, data.error.message, data.error.fieldErrors ?? {});
    }
    // better-auth's own answers are { code, message }.
    return new ApiError(response.status, data.code ?? 'ERROR', 'Error', data.message ?? response.statusText);
  } catch {
    return new ApiError(response.status, 'ERROR', 'Error', response.statusText || 'Request failed');
  }
}

export async function apiGet<T>(path: string): Promise<T> {
  return (await send('GET', path)).json() as Promise<T>;
}

export async function apiGetPage<T>(path: string): Promise<ApiPage<T>> {
  const response = await send('GET', path);
  return { items: (await response.json()) as T[], nextCursor: nextCursorFromLink(response.headers.get('link')) };
}

export async function apiSend<T>(method: Exclude<Method, 'GET'>, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  const response = await send(method, path, body, headers);
  const text = await response.text();
  return (text ? JSON.parse(text) : null) as T;
}

export function nextCursorFromLink(link: string | null): string | null {
  if (!link) return null;
  const match = /<([^>]+)>;\s*rel="next"/.exec(link);
  if (!match?.[1]) return null;
  return new URL(match[1], 'http://x').searchParams.get('cursor');
}
