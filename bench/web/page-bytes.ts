import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { LoadedRequest } from './lighthouse-run.ts';

export interface ByteCount {
  files: number;
  /** Our own files' bytes, gzip -9 from the build (the budget's unit); NaN if a file was not ours. */
  gzip: number;
  /** What the browser actually transferred (the server sends brotli when asked). */
  transfer: number;
}

export interface PageBytes {
  js: ByteCount;
  css: ByteCount;
  images: ByteCount;
  /** Every request's transfer: document, scripts, styles, images, API answers. */
  totalTransfer: number;
}

const gzipCache = new Map<string, number>();

function gzipSizeOf(file: string): number {
  let size = gzipCache.get(file);
  if (size === undefined) {
    size = gzipSync(readFileSync(file), { level: 9 }).length;
    gzipCache.set(file, size);
  }
  return size;
}

function countBytes(requests: LoadedRequest[], resourceType: string, baseUrl: string, webDist: string): ByteCount {
  const matching = requests.filter((request) => request.resourceType === resourceType);
  let gzip = 0;
  for (const request of matching) {
    const url = new URL(request.url);
    const file = path.join(webDist, decodeURIComponent(url.pathname));
    // A file from elsewhere (or generated on the fly) has no build file to gzip: say so, do not guess.
    gzip += url.origin === new URL(baseUrl).origin && file.startsWith(webDist) && existsSync(file) ? gzipSizeOf(file) : Number.NaN;
  }
  return { files: matching.length, gzip, transfer: matching.reduce((sum, request) => sum + request.transferSize, 0) };
}

/** The bytes of JS, CSS and images one page load fetched, by type. */
export function measurePageBytes(requests: LoadedRequest[], baseUrl: string, webDist: string): PageBytes {
  return {
    js: countBytes(requests, 'Script', baseUrl, webDist),
    css: countBytes(requests, 'Stylesheet', baseUrl, webDist),
    images: countBytes(requests, 'Image', baseUrl, webDist),
    totalTransfer: requests.reduce((sum, request) => sum + request.transferSize, 0),
  };
}
