import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { RouteOptions } from 'fastify';
import { createTestEnv, type TestEnv } from '../helpers/test-app.ts';

/**
 * The server builds a route's answer serialiser on its first answer with a status
 * (lib/lazy-serializers.ts). Here every route's are built at once, with the compiler and the shared
 * schemas the server uses, so a response schema that cannot compile fails the tests, not a buyer's
 * first request.
 */

interface ResponseSchema {
  method: string;
  url: string;
  /** The route as a failure names it: method, URL and, when the route names them, the content type. */
  name: string;
  status: string;
  schema: unknown;
}

/** Each status's schema of a route, per content type when the route names them. */
function responseSchemas(route: RouteOptions): ResponseSchema[] {
  const response = (route.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
  const method = String(route.method);
  const name = `${method} ${route.url}`;
  return Object.entries(response).flatMap(([status, schema]) => {
    const content = (schema as { content?: Record<string, { schema: unknown }> }).content;
    if (content) return Object.entries(content).map(([type, entry]) => ({ method, url: route.url, name: `${name} (${type})`, status, schema: entry.schema }));
    return [{ method, url: route.url, name, status, schema }];
  });
}

describe('every answer serialiser compiles', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv('pglite');
  });
  afterAll(async () => {
    await env.close();
  });

  it('builds each route’s serialiser for each status it describes', () => {
    const compile = SerializerSelector()(env.app.getSchemas(), undefined);
    const schemas = env.routes.flatMap(responseSchemas);
    // The API's routes describe their answers (lib/define-route.ts): this is not an empty loop.
    expect(schemas.length).toBeGreaterThan(50);
    const failures: string[] = [];
    for (const { method, url, name, status, schema } of schemas) {
      try {
        compile({ schema, method, url, httpStatus: status });
      } catch (error) {
        failures.push(`${name} ${status}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
