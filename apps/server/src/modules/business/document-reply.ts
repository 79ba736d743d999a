import type { FastifyReply } from 'fastify';
import type { StoredDocument } from './business.service.ts';

/**
 * A stored document goes out so that nothing in it can run: the sniffed type with nosniff, and a CSP
 * that sandboxes it (no script, an opaque origin) whatever opens it.
 *
 * - `attachment` (the default): a download.
 * - `inline`: the operator's preview, shown in a same-origin frame (a PDF) or an <img> (docs/decisions/
 *   016). The frame itself cannot be sandboxed by its attribute (Chromium refuses to show a PDF in a
 *   sandboxed frame), so the sandbox comes from this answer's own CSP; `frame-ancestors 'self'` lets
 *   only our pages frame it.
 */
export function sendDocument(reply: FastifyReply, document: StoredDocument, disposition: 'attachment' | 'inline' = 'attachment'): FastifyReply {
  const ascii = document.name.replace(/[^A-Za-z0-9 ._-]/g, '_');
  const csp = disposition === 'inline' ? "sandbox; default-src 'none'; frame-ancestors 'self'" : "sandbox; default-src 'none'";
  return reply
    .header('content-type', document.type)
    .header('content-disposition', `${disposition}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(document.name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', csp)
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'private, no-store')
    .send(document.bytes);
}
