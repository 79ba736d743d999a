import type { ApiErrorBody } from '@bulkcart/contracts/errors';

/** An error answer from our API, carrying the server's title, message and per-field errors. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    message: string,
    readonly fieldErrors: Record<string, string[]> = {},
    /** A refused checkout's cart as the server would now charge it (docs/product/api.md#errors). */
    readonly cart?: unknown,
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

/** How long an early answer waits for the page that asked for it before it is dropped. */
const EARLY_ANSWER_MS = 10_000;
const earlyAnswers = new Map<string, Promise<Response>>();

let onSessionGone = () => {};
/**
 * Sets what a 401 to a read does (lib/auth/me.ts: show the user signed out, so the guards send them to
 * /login). Set from outside because me.ts itself calls this client.
 */
export function whenSessionGone(handler: () => void): void {
  onSessionGone = handler;
}

function fetchApi(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`/api${path}`, {
    method,
    credentials: 'same-origin',
    headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
}

/**
 * Starts a GET that the page being opened will make once its code has loaded; its own apiGet of the
 * same path then takes this answer instead of asking again. A path nobody asks for is simply dropped.
 */
export function fetchEarly(path: string): void {
  if (earlyAnswers.has(path)) return;
  const answer = fetchApi('GET', path);
  // Its failure belongs to whoever takes the answer; unclaimed, it must not be an unhandled rejection.
  answer.catch(() => undefined);
  earlyAnswers.set(path, answer);
  setTimeout(() => {
    if (earlyAnswers.get(path) === answer) earlyAnswers.delete(path);
  }, EARLY_ANSWER_MS);
}

function takeEarlyAnswer(method: Method, path: string): Promise<Response> | undefined {
  const answer = method === 'GET' ? earlyAnswers.get(path) : undefined;
  if (answer) earlyAnswers.delete(path);
  return answer;
}

async function send(method: Method, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  let response: Response;
  try {
    response = await (takeEarlyAnswer(method, path) ?? fetchApi(method, path, body, headers));
  } catch {
    throw new ApiError(0, 'NETWORK', 'Error', 'Cannot reach the server. Check your connection and try again.');
  }
  if (!response.ok) {
    // A page that cannot load its data without a session belongs on /login. A refused write is shown
    // where it was made, keeping what was typed; a refused sign-in or /me itself says nothing new.
    if (response.status === 401 && method === 'GET' && path !== '/me') onSessionGone();
    throw await toApiError(response);
  }
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  try {
    const data = (await response.json()) as Partial<ApiErrorBody> & { message?: string; code?: string };
    if (data.error) {
      return new ApiError(response.status, data.error.code, data.error.title, data.error.message, data.error.fieldErrors ?? {}, data.cart);
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

/** A GET whose answer is a file (a stored document), as a Blob: shown from memory, never from our origin. */
export async function apiGetBlob(path: string): Promise<Blob> {
  return (await send('GET', path)).blob();
}

/**
 * A multipart upload of one file with progress: fetch cannot report upload progress, XMLHttpRequest
 * can. Answers like apiSend, and refuses like it (ApiError in our error shape).
 */
export function apiUpload<T>(path: string, field: string, file: File, onProgress: (fraction: number) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${path}`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'Error', 'Cannot reach the server. Check your connection and try again.'));
    xhr.onload = () => {
      const response = new Response(xhr.responseText || null, { status: xhr.status, headers: { 'content-type': xhr.getResponseHeader('content-type') ?? '' } });
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(1);
        resolve((xhr.responseText ? JSON.parse(xhr.responseText) : null) as T);
      } else {
        void toApiError(response).then(reject);
      }
    };
    const body = new FormData();
    body.append(field, file);
    xhr.send(body);
  });
}
