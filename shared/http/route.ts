import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import type { Scope } from '../domain/auth/scopes';
import type { ErrorCode } from '../domain/errors';
import type { Tenant } from '../domain/auth/tenant';
import type { TokenRecord } from '../domain/auth/token';
import { direct, type Unit } from '../data/unit';
import { runKeyed } from './keyed-run';
import { observeRequests } from './observe';
import { authenticate } from './middleware/authenticate';
import { idempotency } from './middleware/idempotency';
import { rateLimit } from './middleware/rate-limit';
import { respond } from './middleware/respond';
import { requireScope } from './middleware/scope';
import { validate } from './middleware/validate';
import { workspace } from './middleware/workspace';
import { header, stateOf } from './state';
import type { JsonText } from './json-text';

type Out<S> = S extends z.ZodType ? z.output<S> : Record<string, never>;

/**
 * What the handler must return: the input of the declared `response` schema (any object for a file); a public
 * document may return it as the JSON text it already is.
 */
type Answer<R, U> = R extends z.ZodType ? z.input<R> | (U extends true ? JsonText<z.input<R>> : never) : object;

/**
 * Every route declares its answer: a JSON route its `data`, the public document itself, a file its media
 * type, and the unrouted fallback `z.never()`, since it only ever answers an error.
 */
type Declared = { response: z.ZodType } | { produces: string } | { unrouted: true; response: z.ZodNever };

export interface RouteSpec<B, Q, P, R = z.ZodType | undefined> {
  /** The one scope this route requires, or `null` for token-introspection routes any valid token may call. */
  scope: Scope | null;
  /** Whether the route acts inside a workspace named by `x-workspace-id` (default true). */
  workspace?: boolean;
  body?: B;
  query?: Q;
  params?: P;
  /** Status of a success (default 200; 201 for creations). */
  status?: number;
  /** The content type of a success that is a file (the handler returns a `FileResponse`); JSON otherwise. */
  produces?: string;
  /** The `$default` route: it authenticates and counts like any route but takes any input, so its answer is always its own 404. */
  unrouted?: true;
  /**
   * A public document (the OpenAPI description): no token, no workspace, no rate limit, and the handler's
   * result is the body itself, not the success wrapper, so tools read it as is; `response` describes that
   * body. The wiring states it too.
   */
  public?: true;
  /**
   * The schema of the success wrapper's `data` (of the whole body for a public document), built from the resource views in `shared/views/`: the
   * handler's return type is checked against it, the OpenAPI document shows it, and the tests check
   * every answer against it strictly.
   */
  response?: R;
  /** Errors the handler answers that the pipeline cannot (a 409 for a state that refuses a DELETE); documented with the rest. */
  errors?: readonly ErrorCode[];
}

interface RouteContext<B, Q, P, W> {
  body: B;
  query: Q;
  params: P;
  /** The workspace named by `x-workspace-id` in the token's mode: the first argument of every repository. */
  tenant: W;
  token: TokenRecord;
  requestId: string;
  now: Date;
  /**
   * The request's unit of work, which every write goes through: the service it calls takes it. It commits at
   * once, except under an `Idempotency-Key`, where it holds the first transaction for `runKeyed` (docs/guide/idempotency.md).
   */
  unit: Unit;
  /** `rawBody` is the body's exact bytes as text (what a signature over the body covers); `header` ignores case. */
  request: { method: string; path: string; rawBody: string; header: (name: string) => string | undefined };
}

type Ctx<B, Q, P, W extends boolean | undefined> = RouteContext<Out<B>, Out<Q>, Out<P>, W extends false ? undefined : Tenant>;

/**
 * The one request pipeline: authenticate (401) → workspace (400/403) → rate limit (429) → scope (403)
 * → idempotency key (replay or 409) → validate (400/413/422) → handler. The handler returns the `data` of
 * the success wrapper. A POST or PATCH with an `Idempotency-Key` runs its handler through `runKeyed`, in the
 * units of work it creates; any other request runs in the `direct` unit.
 */
export const route = <
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  W extends boolean | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
  U extends true | undefined = undefined,
>(
  spec: RouteSpec<B, Q, P, R> & { workspace?: W; public?: U } & Declared,
  fn: (ctx: Ctx<B, Q, P, W>) => Promise<NoInfer<Answer<R, U>>>,
) => {
  const chain = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>().use(
    respond(spec.status ?? 200, { wrap: !spec.public }),
  );
  if (!spec.public) {
    chain.use(authenticate({ workspace: spec.workspace !== false }));
    if (spec.workspace !== false) chain.use(workspace());
    chain.use(rateLimit());
    if (spec.scope) chain.use(requireScope(spec.scope));
    // Keys are scoped to the token and the workspace; the route-wide gate proves every POST and PATCH honours them.
    if (spec.workspace !== false && !spec.unrouted) chain.use(idempotency());
  }
  if (!spec.unrouted) chain.use(validate({ body: spec.body, query: spec.query, params: spec.params }));
  const handler = chain.handler(async (event) => {
    const state = stateOf({ event });
    const input = state.input ?? { body: undefined, query: {}, params: {} };
    const ctx = (unit: Unit) =>
      ({
        body: input.body,
        query: input.query,
        params: input.params,
        tenant: state.tenant,
        token: state.token!,
        requestId: state.requestId,
        now: state.now,
        request: {
          method: event.requestContext.http.method,
          path: event.rawPath,
          rawBody: event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8').toString('utf8') : '',
          header: (name: string) => header(event, name),
        },
        unit,
      }) as Ctx<B, Q, P, W>;
    const run = (unit: Unit) => fn(ctx(unit)) as Promise<object>;
    const data = state.idempotency ? await runKeyed(state.idempotency, spec.status ?? 200, state.now, run) : await run(direct);
    return data as unknown as APIGatewayProxyStructuredResultV2;
  });
  // The route's own declaration: the one source of its scope and schemas for docs, gates and fuzzing.
  return Object.assign(observeRequests(handler), {
    scope: spec.scope,
    spec: spec as RouteSpec<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined>,
  });
};
