import type { FastifyReply } from 'fastify';
import type { StoredDocument } from './business.service.ts';

/**
 * A stored document goes out only as a download that nothing will run: attachment, the sniffed type
 * with nosniff, and a CSP that sandboxes it (no script, no same origin) should a browser open it anyway.
 */
export function sendDocument(reply: FastifyReply, document: StoredDocument): FastifyReply {
  const ascii = document.name.replace(/[^A-Za-z0-9 ._-]/g, '_');
  return reply
    .header('content-type', document.type)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(document.name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'")
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'private, no-store')
    .send(document.bytes);
}
