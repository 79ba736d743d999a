import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.ts';

/**
 * No API body is more than a few levels deep. Tens of thousands of nested brackets parse, but then
 * overflow the stack of whatever walks them next (better-auth's body is re-serialised, zod recurses):
 * a 500 from bad input. Refused at the parser, for every route present and future.
 */
export const MAX_JSON_DEPTH = 32;

/** Deepest nesting of arrays and objects in a JSON text, counting brackets outside strings. */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i++; // a backslash escapes the next character, quote included
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) {
      inString = true;
    } else if (char === 0x5b || char === 0x7b) {
      depth++;
      if (depth > deepest) deepest = depth;
    } else if (char === 0x5d || char === 0x7d) {
      depth--;
    }
  }
  return deepest;
}

/** Fastify's own JSON parser (prototype-poisoning checks included), behind a depth check. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      done(new AppError('BAD_REQUEST', `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
