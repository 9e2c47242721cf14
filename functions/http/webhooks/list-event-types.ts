import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { eventType } from '../../../shared/views/webhooks';
import { isEventType } from '../../../shared/events/types';
import { readScopeOf } from '../../../shared/events/scopes';

type Json = Record<string, unknown>;

/** Writes each `$ref` to a view in place, so an event's data schema stands alone, without `$defs`. */
const inlined = (node: unknown, defs: Json): unknown => {
  if (Array.isArray(node)) return node.map((n) => inlined(n, defs));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, $defs: _defs, ...rest } = node as Json;
  if (typeof $ref === 'string') return inlined(defs[$ref.slice('#/$defs/'.length)], defs);
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, inlined(v, defs)]));
};

const selfContained = (schema: z.ZodType) => {
  const json = z.toJSONSchema(schema);
  return inlined(json, (json.$defs ?? {}) as Json) as Json;
};

/**
 * The answer, built by the first request that reaches it: the catalog's payloads are every resource view (about
 * 1,000 schema objects) and their JSON schemas, loaded with them (a chunk of their own), so neither the import
 * nor a refused request pays for them. It is the same for every request, so it is built once.
 */
const build = async () => {
  const { eventCatalog, pingEvent } = await import('../../../shared/events/catalog');
  const eventTypes = [...eventCatalog, pingEvent].map((e) => ({
    type: e.type,
    category: e.type.split('.')[0]!,
    // What a token needs to see the type in the events log and on the realtime socket (docs/guide/realtime.md).
    readScope: readScopeOf(e.type) ?? null,
    status: e.status,
    // What a subscription's `events` may name: `webhook.ping` is sent by the test route alone, as GitHub's ping.
    subscribable: isEventType(e.type),
    description: e.description,
    dataSchema: selfContained(e.data),
  }));
  return { eventTypes, wildcards: ['*', ...new Set(eventCatalog.map((e) => `${e.type.split('.')[0]}.*`))] };
};
let answer: ReturnType<typeof build> | undefined;

/**
 * The catalog a subscription's `events` may name (`subscribable`), plus the wildcards `*` and `<prefix>.*`. A
 * `planned` type may be subscribed to but never fires until its area ships.
 */
export const handler = route(
  { scope: 'webhooks:read', response: z.strictObject({ eventTypes: z.array(eventType), wildcards: z.array(z.string()) }) },
  async () => {
    answer ??= build();
    return answer;
  },
);
