import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** Links to this site become clickable; anything else stays text. */
function linkify(text: string, baseUrl: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => {
    const raw = url.replace(/&amp;/g, '&');
    return raw.startsWith(`${baseUrl}/`) ? `<a href="${url}">${url}</a>` : url;
  });
}

/**
 * /dev/mailbox, in demo mode only: the e-mails the server would have sent, for a developer without a
 * mail server (confirmation and reset links included). Plain HTML, no script; newest first.
 */
export function registerDevMailbox(app: FastifyInstance, ctx: AppContext): void {
  app.get('/dev/mailbox', { schema: { hide: true } }, async (_request, reply) => {
    const items = ctx.mailbox
      .messages()
      .map(
        (m) =>
          `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">To <span class="to">${escapeHtml(m.to)}</span> · ${escapeHtml(m.receivedAt)}</p><pre>${linkify(m.text, ctx.config.baseUrl)}</pre></article>`,
      )
      .join('\n');
    const body = items || '<p>No e-mail yet. Messages appear here a few seconds after the server sends them.</p>';
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Developer mailbox</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem;color:#1f2937}article{border:1px solid #d1d5db;border-radius:.5rem;padding:1rem;margin:1rem 0}h2{margin:0;font-size:1.1rem}.meta{color:#4b5563;margin:.25rem 0}pre{white-space:pre-wrap;font:inherit}a{color:#1d4ed8}</style></head><body><h1>Developer mailbox</h1><p>Demo mode only: e-mails the server sent while no SMTP_URL is set.</p>${body}</body></html>`;
  });
}
