import { z } from 'zod';
import type { FastifySchema, RouteShorthandOptions } from 'fastify';
import { apiErrorBodySchema } from '@bulkcart/contracts';

type JsonSchema = Record<string, unknown>;

/**
 * zod marks every `z.int()` with the safe-integer range; it says nothing a reader needs and only
 * makes fast-json-stringify check it on every number it writes.
 */
function isSafeIntegerBound(key: string, value: unknown): boolean {
  return (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) || (key === 'maximum' && value === Number.MAX_SAFE_INTEGER);
}

/**
 * `anyOf: [{ type: 'integer' }, { type: 'null' }]` becomes `type: ['integer', 'null']`.
 * fast-json-stringify writes a type list directly, while for `anyOf` it must validate the value
 * against each branch first: on the catalog's read path that is several times slower.
 */
function collapseNullable(schema: JsonSchema): JsonSchema {
  const branches = schema.anyOf;
  if (!Array.isArray(branches) || branches.length !== 2) return schema;
  const nullIndex = branches.findIndex((b: JsonSchema) => b.type === 'null' && Object.keys(b).length === 1);
  const other = branches[1 - nullIndex] as JsonSchema | undefined;
  if (nullIndex < 0 || !other || typeof other.type !== 'string' || other.type === 'object' || other.type === 'array') return schema;
  const { anyOf: _anyOf, ...rest } = schema;
  // A nullable enum keeps null among its allowed values.
  const allowed = Array.isArray(other.enum) ? { enum: [...(other.enum as unknown[]), null] } : {};
  return { ...rest, ...other, ...allowed, type: [other.type, 'null'] };
}

function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (!value || typeof value !== 'object') return value;
  const out: JsonSchema = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$schema' || isSafeIntegerBound(key, child)) continue;
    out[key] = tidy(child);
  }
  return collapseNullable(out);
}

/**
 * The JSON Schema of a zod contract. Requests are described as clients may send them (`input`: extra
 * fields allowed, defaults optional), answers as the server writes them (`output`).
 */
export function toJsonSchema(schema: z.core.$ZodType, io: 'input' | 'output'): JsonSchema {
  return tidy(z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' })) as JsonSchema;
}

/** What the reference page shows beside each described status. */
const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created' };

export interface RouteContract {
  summary: string;
  tags: string[];
  /** Whether the route needs a session (cookie or bearer token); shown in the description. */
  signedIn?: boolean;
  params?: z.core.$ZodObject;
  querystring?: z.core.$ZodObject;
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** Every success status the route answers, with its body. */
  response: Record<number, z.ZodType>;
  /** A `multipart/form-data` body of one file field with this name (instead of `body`). */
  multipartFile?: string;
  /** The 200 answer is a file, not JSON (its type is the file's own): a download, or shown in the page. */
  download?: 'attachment' | 'inline';
  /**
   * Error statuses a client must handle on this route, each with what it means here; every route
   * also answers the one error shape under 4XX/5XX (plugins/openapi.ts).
   */
  errors?: Record<number, string>;
}

/** The header a 429 or 503 carries. */
const RETRY_AFTER = { 'retry-after': { type: 'integer', minimum: 1, description: 'Seconds to wait before trying again' } };

/** A file answer, as OpenAPI 3.1 describes binary content. */
const fileResponse = (disposition: 'attachment' | 'inline') => ({
  description:
    disposition === 'attachment'
      ? 'The file, as an attachment'
      : 'The file, inline (Content-Disposition: inline), sandboxed by its own Content-Security-Policy',
  content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
});

/**
 * Route options from a route's zod contracts: the answers are serialised with the JSON Schema
 * derived from them (fast-json-stringify writes only the fields the contract names), and
 * @fastify/swagger reads the same schema for /api/openapi.json. Requests are validated in the
 * handler by `parseInput` with the same zod schema, which gives our error shape and messages; the
 * described request parts therefore get a validator that accepts everything, instead of Fastify's
 * own Ajv pass with different messages (a second, differing validation of the same input).
 */
export function routeContract(contract: RouteContract): Pick<RouteShorthandOptions, 'schema' | 'validatorCompiler'> {
  const response: Record<string, unknown> = {};
  for (const [status, body] of Object.entries(contract.response)) {
    response[status] = { description: STATUS_TEXT[Number(status)] ?? 'Success', ...toJsonSchema(body, 'output') };
  }
  if (contract.download) response['200'] = fileResponse(contract.download);
  for (const [status, description] of Object.entries(contract.errors ?? {})) {
    response[status] = { ...errorResponseSchema, description, ...(status === '429' || status === '503' ? { headers: RETRY_AFTER } : {}) };
  }
  const schema: FastifySchema & Record<string, unknown> = {
    summary: contract.summary,
    tags: contract.tags,
    response,
    ...(contract.params ? { params: toJsonSchema(contract.params, 'input') } : {}),
    ...(contract.querystring ? { querystring: toJsonSchema(contract.querystring, 'input') } : {}),
    ...(contract.headers ? { headers: toJsonSchema(contract.headers, 'input') } : {}),
    ...(contract.body ? { body: toJsonSchema(contract.body, 'input') } : {}),
    ...(contract.multipartFile
      ? {
          consumes: ['multipart/form-data'],
          body: {
            type: 'object',
            required: [contract.multipartFile],
            properties: { [contract.multipartFile]: { type: 'string', contentMediaType: 'application/octet-stream' } },
          },
        }
      : {}),
    ...(contract.signedIn ? { security: [{ session: [] }, { bearer: [] }] } : {}),
  };
  return { schema, validatorCompiler: () => () => true };
}

/** Error answers, described once for every route (they never go through a route's serialiser). */
export const errorResponseSchema = { description: 'Error (docs/product/api.md#errors)', ...toJsonSchema(apiErrorBodySchema, 'output') };
