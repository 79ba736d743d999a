import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { errorResponseSchema } from '../lib/route-schema.ts';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * Rules every operation shares, stated once where a client reads first; each operation's own rules
 * (patterns, limits, enums, its refusals) are in its schemas and responses.
 */
export function apiRules(bodyLimitBytes: number): string {
  return [
    'The JSON API of BulkCart. Rules and texts: docs/product/ in the repository.',
    '',
    '- **Errors** are one JSON shape, `{ "error": { "code", "title", "message", "fieldErrors"? } }`, under every 4XX and 5XX.',
    '- **Methods**: a path asked with a method it does not have answers **405** with an `Allow` header naming the ones it has (paths under /api/admin answer 404 to anyone but an operator, whatever the method).',
    `- **Bodies** are JSON (\`application/json\`, else **415**), at most ${bodyLimitBytes / 1024} KB (else **413**); the document upload alone takes \`multipart/form-data\`.`,
    '- **Lists** answer one page as a JSON array (`limit`, default 48, at most 200) and announce the next in `Link: <…>; rel="next"`; its `cursor` is opaque: one the server did not issue is **422** `Invalid cursor`.',
    '- **Writes with a session cookie** must come from this site (`Origin`, else **403**); API clients may send `Authorization: Bearer <token>` instead.',
    '- **Paths** are read in one canonical spelling (`//`, dot segments and needless percent-encodings are resolved first); a backslash or an encoded slash has none and is **400**.',
    '- **Rate limits** answer **429** with `Retry-After` (seconds): sign-in and sign-up failures, orders, document uploads. A **503** also carries `Retry-After`.',
  ].join('\n');
}

/**
 * Swagger UI's bundle (of the @fastify/swagger-ui version in the lockfile) inserts one <style> element
 * of fixed content; the reference page's CSP allows exactly that content by its hash and nothing else.
 * A new version with other content breaks e2e/api-reference.spec.ts, which watches for CSP violations.
 */
const SWAGGER_UI_STYLE_HASH = "'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='";
export const API_REFERENCE_PATH = '/api/docs';

/**
 * Routes the description leaves out on purpose: better-auth's endpoints sit behind one wildcard
 * route, and docs/product/api.md lists the ones the app uses. Everything else under /api is described
 * from its route schema; a route registered without one shows up with no answer described, which the
 * OpenAPI test refuses.
 */
export function isOutsideDescription(url: string): boolean {
  return !url.startsWith('/api/') || url.startsWith('/api/auth/');
}

/**
 * GET /api/openapi.json (OpenAPI 3.1) built by @fastify/swagger from the route schemas, which
 * lib/route-schema.ts derives from the zod contracts; and a browsable reference at /api/docs (Swagger
 * UI's own files, served by this app, so the site-wide CSP of plugins/security.ts holds there too).
 * Registered before any route: @fastify/swagger learns routes as they are added.
 */
export async function registerOpenApi(app: FastifyInstance, options: { bodyLimitBytes: number }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'BulkCart API',
        version: '1',
        description: apiRules(options.bodyLimitBytes),
      },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: ({ schema, url }) => {
      if (isOutsideDescription(url)) return { schema: { ...schema, hide: true }, url };
      // Every route may answer in the one error shape (plugins/errors.ts); described here once.
      const response = { ...(schema?.response as object | undefined), '4XX': errorResponseSchema, '5XX': errorResponseSchema };
      return { schema: { ...schema, response }, url };
    },
  });

  app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());

  await app.register(swaggerUi, {
    routePrefix: API_REFERENCE_PATH,
    // BaseLayout: no top bar with a box for loading some other description.
    uiConfig: { layout: 'BaseLayout', deepLinking: true, validatorUrl: null },
    staticCSP: false,
    // Only on the reference page's own files: the site-wide policy plus that one style's hash.
    transformStaticCSP: (header) => header.replace("style-src 'self'", `style-src 'self' ${SWAGGER_UI_STYLE_HASH}`),
  });
}
