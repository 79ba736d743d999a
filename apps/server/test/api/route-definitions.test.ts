import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import Fastify, { type RouteOptions } from 'fastify';
import { z } from 'zod';
import { createTestEnv, type TestEnv } from '../helpers/test-app.ts';
import { asUser, signUpOperator, signUpUser, type TestUser } from '../helpers/accounts.ts';
import { defineRoute, definitionOf, routeTable, type DefinedRoute } from '../../src/lib/define-route.ts';
import { AppError } from '../../src/lib/app-error.ts';
import { parseInput } from '../../src/lib/validate.ts';
import { OPENAPI_PATH } from '../../src/plugins/openapi.ts';

/**
 * Every /api route comes from lib/define-route.ts, and for each the request schema /api/openapi.json
 * describes is the one the server enforces: an input both the description and the route's zod schema
 * refuse is sent, and the answer is parseInput's 422 for it, field by field.
 */

/** /api routes registered another way, each with why. Nothing else may be. */
const OUTSIDE_DEFINE_ROUTE: { url: RegExp; why: string }[] = [
  { url: /^\/api\/auth\/\*$/, why: "better-auth's own endpoints behind one catch-all (accounts/auth.routes.ts): it validates and answers them itself" },
  { url: /^\/api\/openapi\.json$/, why: 'the description itself (plugins/openapi.ts), hidden from it' },
  { url: /^\/api\/docs(\/|$)/, why: "@fastify/swagger-ui's reference page and its static files" },
];

const OPERATOR = 'route-definitions-operator@example.com';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema: object }[];
  requestBody?: { content?: Record<string, { schema?: object }> };
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
}

const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

/** The described querystring, as one object schema (OpenAPI splits it into parameters). */
function describedQuery(operation: Operation): object | null {
  const query = (operation.parameters ?? []).filter((p) => p.in === 'query');
  if (query.length === 0) return null;
  return {
    type: 'object',
    properties: Object.fromEntries(query.map((p) => [p.name, p.schema])),
    required: query.filter((p) => p.required).map((p) => p.name),
  };
}

/** Inputs to try, most telling first: one field wrong at a time, then nothing, then not an object. */
function candidates(described: object, strings: boolean): unknown[] {
  const names = Object.keys((described as { properties?: object }).properties ?? {});
  const wrong: unknown[] = strings
    ? ['x'.repeat(2000), '-1', 'not-a-valid-value', '1.5', '', '0']
    : [null, 'x'.repeat(5000), -1, 'not-a-valid-value', 1.5, [], {}];
  return [...names.flatMap((name) => wrong.map((value) => ({ [name]: value }))), {}, ...(strings ? [] : [[], 'text'])];
}

/** What parseInput answers for a value: the 422's message and field errors. */
function expectedRefusal(schema: Parameters<typeof parseInput>[0], value: unknown): { message: string; fieldErrors: Record<string, string[]> | undefined } {
  try {
    parseInput(schema, value);
  } catch (error) {
    if (error instanceof AppError) return { message: error.message, fieldErrors: error.fieldErrors };
    throw error;
  }
  throw new Error('parseInput accepted it');
}

describe('route definitions (lib/define-route.ts)', () => {
  let env: TestEnv;
  let doc: OpenApiDocument;
  let user: TestUser;
  let operator: TestUser;
  let defined: DefinedRoute[];

  beforeAll(async () => {
    env = await createTestEnv('pglite', { ADMIN_EMAILS: OPERATOR });
    doc = (await env.request({ method: 'GET', url: OPENAPI_PATH })).json() as OpenApiDocument;
    [user, operator] = await Promise.all([signUpUser(env, { name: 'Route Definitions' }), signUpOperator(env, OPERATOR)]);
    defined = routeTable(env.routes);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('registers every /api route through defineRoute, but for the few listed with their reason', () => {
    const outside = env.routes
      .filter((route) => route.url.startsWith('/api') && !definitionOf(route))
      .filter((route) => !OUTSIDE_DEFINE_ROUTE.some((allowed) => allowed.url.test(route.url)))
      .map((route) => `${[route.method].flat().join(',')} ${route.url}`);
    expect(outside, 'register these with defineRoute (lib/define-route.ts)').toEqual([]);
    // The table must really hold the routes, or "nothing outside" would prove nothing.
    expect(defined.length).toBeGreaterThan(60);
    expect(defined.map((route) => `${route.method} ${route.url}`)).toEqual(
      expect.arrayContaining(['POST /api/order', 'GET /api/admin/audit', 'POST /api/catalog-imports']),
    );
  });

  it('tells a route added outside defineRoute from one added through it', async () => {
    const probe = Fastify();
    const added: RouteOptions[] = [];
    probe.addHook('onRoute', (route) => {
      added.push(route);
    });
    probe.get('/api/probe-outside', async () => ({}));
    defineRoute(probe, env.ctx, {
      method: 'GET',
      url: '/api/probe-defined',
      auth: 'public',
      summary: 'Probe',
      tags: [],
      response: { 200: z.object({}) },
      handler: () => ({}),
    });
    await probe.ready();
    const byUrl = (url: string) => added.filter((route) => route.url === url && route.method === 'GET');
    expect(byUrl('/api/probe-outside').map((route) => definitionOf(route))).toEqual([undefined]);
    expect(byUrl('/api/probe-defined').map((route) => definitionOf(route)?.auth)).toEqual(['public']);
    await probe.close();
  });

  it('describes a request body and querystring exactly where the definition has one', () => {
    const drift: string[] = [];
    for (const route of defined) {
      const operation = doc.paths[toOpenApiPath(route.url)]?.[route.method.toLowerCase()];
      if (!operation) {
        drift.push(`${route.method} ${route.url}: not described`);
        continue;
      }
      const describedBody = Boolean(operation.requestBody?.content?.['application/json']?.schema);
      if (describedBody !== Boolean(route.body)) drift.push(`${route.method} ${route.url}: body described ${describedBody}, defined ${Boolean(route.body)}`);
      const query = describedQuery(operation);
      if (Boolean(query) !== Boolean(route.querystring))
        drift.push(`${route.method} ${route.url}: query described ${Boolean(query)}, defined ${Boolean(route.querystring)}`);
    }
    expect(drift).toEqual([]);
  });

  it("answers 422 with parseInput's messages to a body or query that both the description and the schema refuse, on every route that takes one", async () => {
    // The one string format the contracts describe; the inputs tried here never hinge on it.
    const formats = { uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i };
    const ajv = new Ajv2020({ strict: false, allErrors: true, formats });
    const ajvQuery = new Ajv2020({ strict: false, allErrors: true, coerceTypes: true, formats });
    const problems: string[] = [];
    let sent = 0;
    for (const route of defined) {
      const operation = doc.paths[toOpenApiPath(route.url)]![route.method.toLowerCase()]!;
      const url = route.url.replace(/:(\w+)/g, () => randomUUID());
      const headers = route.auth === 'operator' ? asUser(operator) : route.auth === 'public' ? {} : asUser(user);
      const parts = [
        ...(route.querystring ? [{ kind: 'query' as const, schema: route.querystring, described: describedQuery(operation)! }] : []),
        ...(route.body ? [{ kind: 'body' as const, schema: route.body, described: operation.requestBody!.content!['application/json']!.schema! }] : []),
      ];
      for (const part of parts) {
        const validate = (part.kind === 'query' ? ajvQuery : ajv).compile(part.described);
        // Ajv may coerce in place: it gets a copy.
        const refused = candidates(part.described, part.kind === 'query').find(
          (value) => !z.safeParse(part.schema, value).success && !validate(structuredClone(value)),
        );
        const label = `${route.method} ${route.url} (${part.kind})`;
        if (refused === undefined) {
          problems.push(`${label}: no input found that both refuse`);
          continue;
        }
        const search = part.kind === 'query' ? `?${new URLSearchParams(refused as Record<string, string>).toString()}` : '';
        const response = await env.request({
          method: route.method,
          url: `${url}${search}`,
          headers,
          ...(part.kind === 'body' ? { payload: JSON.stringify(refused), headers: { ...headers, 'content-type': 'application/json' } } : {}),
        });
        sent += 1;
        const expected = expectedRefusal(part.schema, refused);
        const answer = response.json() as { error?: { code?: string; message?: string; fieldErrors?: unknown } };
        if (response.statusCode !== 422 || answer.error?.code !== 'VALIDATION' || answer.error.message !== expected.message) {
          problems.push(`${label} with ${JSON.stringify(refused).slice(0, 80)}: ${response.statusCode} ${response.body.slice(0, 200)}`);
        } else {
          expect(answer.error.fieldErrors, label).toEqual(expected.fieldErrors);
        }
      }
    }
    expect(problems).toEqual([]);
    // Most routes with input are reached: a table that lost them would prove nothing.
    expect(sent).toBeGreaterThan(25);
  });
});
