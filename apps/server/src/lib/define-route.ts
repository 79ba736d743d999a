import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import { getSessionUser, requireUser, type SessionUser } from '../modules/accounts/session.ts';
import { routeContract, type RouteContract } from './route-schema.ts';
import { operatorGate, operatorOf } from './operator-gate.ts';
import { parseInput } from './validate.ts';
import { ROUTE_LIMIT_DESCRIPTIONS, type RouteLimit } from '../plugins/rate-limits/route-limits.ts';

/**
 * Who may call a route, and what its handler is handed:
 * - `public`: anyone; no session is read.
 * - `optional`: anyone; the session's user when there is one, else null.
 * - `signedIn`: a session (cookie or bearer token), else 401 "Please sign in first."
 * - `operator`: an operator's session (business/operators.ts), else the 404 of a route that is not there.
 */
export type RouteAuth = 'public' | 'optional' | 'signedIn' | 'operator';

export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type UserOf<A extends RouteAuth> = A extends 'signedIn' | 'operator' ? SessionUser : A extends 'optional' ? SessionUser | null : null;
/** A schema of any zod flavour: the contracts are written with zod, and the search query with zod/mini (decision 031). */
type Schema = z.core.$ZodType;
type ObjectSchema = z.core.$ZodObject;
type Parsed<S> = S extends Schema ? z.output<S> : undefined;
/** What a handler may answer: a body one of the described successes serialises, or the reply it sent itself. */
type AnswerOf<R> = { [K in keyof R]: R[K] extends z.ZodType ? z.input<R[K]> : never }[keyof R] | FastifyReply;

export interface RouteInput<A extends RouteAuth, P, Q, B> {
  user: UserOf<A>;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/**
 * One route, said once: everything below follows from it (lib/define-route.ts `defineRoute`). `params`,
 * `querystring` and `body` are parsed with these zod schemas before the handler runs (a 422 with a message
 * per field, lib/validate.ts); `headers` is described only (the one header a route reads has its own 400).
 */
export interface RouteDefinition<
  A extends RouteAuth,
  P extends ObjectSchema | undefined,
  Q extends ObjectSchema | undefined,
  B extends z.ZodType | undefined,
  R extends Record<number, z.ZodType>,
> extends Omit<RouteContract, 'signedIn' | 'params' | 'querystring' | 'body' | 'response'> {
  method: RouteMethod;
  url: string;
  auth: A;
  params?: P;
  querystring?: Q;
  body?: B;
  response: R;
  /**
   * A limit on calls (plugins/rate-limits/route-limits.ts): its plugin counts this route, and its 429
   * joins the route's described errors. Counted only when RATE_LIMIT is on.
   */
  rateLimit?: RouteLimit;
  /**
   * Checks that come before the session is read, as the route has always made them (a malformed import
   * id is the same 404 for everyone). Runs after Fastify has read the body.
   */
  beforeAuth?: (request: FastifyRequest) => void | Promise<void>;
  /** Checks on the caller or on headers that come before the input is validated (a confirmed e-mail, the Idempotency-Key). */
  beforeInput?: (caller: { user: UserOf<A>; request: FastifyRequest }) => void | Promise<void>;
  /**
   * Escape hatch, for uploads only: a hook that must refuse before Fastify reads the body (a declared
   * Content-Length over the file limit gets its 413 without the upload being received).
   */
  onRequest?: onRequestHookHandler;
  handler: (input: RouteInput<A, P, Q, B>) => AnswerOf<R> | Promise<AnswerOf<R>>;
}

/** What the route table says of a defined route: what the authorization matrix and the docs read. */
export interface DefinedRoute {
  method: RouteMethod;
  url: string;
  auth: RouteAuth;
  summary: string;
  tags: string[];
  params?: ObjectSchema;
  querystring?: ObjectSchema;
  body?: z.ZodType;
  multipartFile?: string;
  rateLimit?: RouteLimit;
}

/** Handlers made by defineRoute, with their definition: the marker a route registered another way lacks. */
const definedHandlers = new WeakMap<object, DefinedRoute>();

/** The definition behind a registered route, or undefined when it was registered outside defineRoute. */
export function definitionOf(route: Pick<RouteOptions, 'handler'>): DefinedRoute | undefined {
  return definedHandlers.get(route.handler);
}

/** Every defined route among an app's registered routes (app.ts records them), in registration order. */
export function routeTable(routes: readonly RouteOptions[]): DefinedRoute[] {
  const seen = new Set<DefinedRoute>();
  for (const route of routes) {
    const definition = definitionOf(route);
    if (definition) seen.add(definition);
  }
  return [...seen];
}

async function callerOf(ctx: Pick<AppContext, 'auth'>, auth: RouteAuth, request: FastifyRequest): Promise<SessionUser | null> {
  switch (auth) {
    case 'public':
      return null;
    case 'optional':
      return getSessionUser(ctx.auth, request);
    case 'signedIn':
      return requireUser(ctx.auth, request);
    case 'operator':
      return operatorOf(request);
  }
}

/**
 * Registers one route from its definition: the handler's types, the validation of params, query and
 * body (the same zod schemas, parseInput's 422), the session check of its `auth`, the answer's
 * serialisation and its OpenAPI entry (lib/route-schema.ts), and its line in the route table.
 * Checks run in one order on every route: `beforeAuth`, the session, `beforeInput`, params, query, body.
 */
export function defineRoute<
  A extends RouteAuth,
  R extends Record<number, z.ZodType>,
  P extends ObjectSchema | undefined = undefined,
  Q extends ObjectSchema | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(app: FastifyInstance, ctx: Pick<AppContext, 'auth' | 'config' | 'db'>, definition: RouteDefinition<A, P, Q, B, R>): void {
  const { method, url, auth, params, querystring, body, rateLimit, beforeAuth, beforeInput, onRequest, handler, ...described } = definition;
  const hooks = [...(auth === 'operator' ? [operatorGate(ctx)] : []), ...(onRequest ? [onRequest] : [])];
  const routeHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    await beforeAuth?.(request);
    const user = (await callerOf(ctx, auth, request)) as UserOf<A>;
    await beforeInput?.({ user, request });
    const input = {
      user,
      params: (params ? parseInput(params, request.params) : undefined) as Parsed<P>,
      query: (querystring ? parseInput(querystring, request.query) : undefined) as Parsed<Q>,
      body: (body ? parseInput(body, request.body) : undefined) as Parsed<B>,
      request,
      reply,
    };
    return handler(input);
  };
  definedHandlers.set(routeHandler, {
    method,
    url,
    auth,
    summary: described.summary,
    tags: described.tags,
    ...(params ? { params } : {}),
    ...(querystring ? { querystring } : {}),
    ...(body ? { body } : {}),
    ...(described.multipartFile ? { multipartFile: described.multipartFile } : {}),
    ...(rateLimit ? { rateLimit } : {}),
  });
  app.route({
    method,
    url,
    ...routeContract({
      ...described,
      ...(rateLimit ? { errors: { ...described.errors, 429: ROUTE_LIMIT_DESCRIPTIONS[rateLimit] } } : {}),
      signedIn: auth !== 'public' && auth !== 'optional',
      ...(params ? { params } : {}),
      ...(querystring ? { querystring } : {}),
      ...(body ? { body } : {}),
    }),
    ...(hooks.length > 0 ? { onRequest: hooks } : {}),
    ...(rateLimit ? { config: { rateLimit } } : {}),
    handler: routeHandler,
  });
}
