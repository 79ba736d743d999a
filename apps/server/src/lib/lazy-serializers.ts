import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;

/**
 * Fastify's response serialisers (fast-json-stringify: one generated function per route and status),
 * each built on the route's first answer with that status instead of all at start-up. Building them
 * all made a restart on PGlite about an eighth slower and dearer (docs/decisions/030), and a process
 * answers few of its routes' statuses. The same compiler builds the same function, so no answer
 * changes; the cost moves to a route's first answer with a status (a few milliseconds, once per
 * process).
 * apps/server/test/api/response-serializers.test.ts builds every route's, so a schema that cannot
 * compile still fails the tests rather than a first request.
 */
export function lazySerializerFactory(): SerializerFactory {
  const buildFactory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = buildFactory(externalSchemas, options);
    return (route) => {
      let serialize: ((doc: unknown) => string) | undefined;
      return (doc) => (serialize ??= compile(route))(doc);
    };
  };
}
