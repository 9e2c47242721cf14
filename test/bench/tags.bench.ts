import type { LocalStack } from '../../infra/local/stack';
import { createCustomer } from '../../shared/contacts/customers';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { mapLimit } from '../../shared/domain/map-limit';
import { createTenant } from '../support/tenants';
import { tokenPool } from './token-pool';
import { measure, type Latency, type Section } from './measure';
import { direct } from '../../shared/data/unit';

const SINGLE_REQUESTS = 50;
const BULK_REQUESTS = 3;
const ENTITIES_PER_BULK = 100;

/**
 * Tagging cost: the baseline is one entity tagged through its own route; bulk tags 100 entities per call.
 * Every timed call changes fresh entities, so each does the full work (one transaction per entity).
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId, tenant, token } = await createTenant(['admin:all']);
  const post = async (auth: string, path: string, body: unknown) => {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${auth}`, 'x-workspace-id': workspaceId, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { data: any };
    if (!res.ok) throw new Error(`${path}: unexpected ${res.status} ${JSON.stringify(json)}`);
    return json.data;
  };
  const tags: string[] = [];
  for (let i = 0; i < 10; i++) tags.push((await post(token, '/api/v1/tags', { name: `bench-${i}` })).tag._id);

  const customers = async (n: number) =>
    mapLimit(Array.from({ length: n }), 16, async () => (await createCustomer(direct, tenant, { name: 'Bench' }, new Date()))._id);
  const fresh = async (n: number) => {
    const ids = await customers(n);
    return () => ids.splice(0, ENTITIES_PER_BULK);
  };

  const singleIds = await customers(SINGLE_REQUESTS + 5);
  const writeToken = tokenPool(workspaceId, RATE_LIMITS.write);
  const single = await measure(
    async () => post(await writeToken(), `/api/v1/contacts/customers/${singleIds.pop()}/tags`, { tagIds: [tags[0]] }),
    { requests: SINGLE_REQUESTS, concurrency: 1, warmup: 5 },
  );

  const bulkToken = tokenPool(workspaceId, RATE_LIMITS.bulk);
  const bulk = async (tagIds: string[]) => {
    const next = await fresh((BULK_REQUESTS + 1) * ENTITIES_PER_BULK);
    return measure(async () => post(await bulkToken(), '/api/v1/tags/bulk', { entityType: 'customer', entityIds: next(), tagIds }), {
      requests: BULK_REQUESTS,
      concurrency: 1,
      warmup: 1,
    });
  };
  const oneTag = await bulk(tags.slice(0, 1));
  const tenTags = await bulk(tags);
  const done = await customers(ENTITIES_PER_BULK);
  await post(await bulkToken(), '/api/v1/tags/bulk', { entityType: 'customer', entityIds: done, tagIds: tags });
  const repeat = await measure(
    async () => post(await bulkToken(), '/api/v1/tags/bulk', { entityType: 'customer', entityIds: done, tagIds: tags }),
    {
      requests: BULK_REQUESTS,
      concurrency: 1,
      warmup: 1,
    },
  );

  const row = (name: string, entities: number, l: Latency) => [
    name,
    entities,
    l.p50Ms,
    l.p99Ms,
    l.p50Ms / entities,
    l.p50Ms / entities / single.p50Ms,
  ];
  return [
    {
      title: 'Tagging: bulk calls vs tagging one entity per call',
      columns: ['call', 'entities per call', 'p50 ms', 'p99 ms', 'p50 ms per entity', 'per entity ÷ single call'],
      rows: [
        row('POST …/customers/{id}/tags, 1 tag (baseline)', 1, single),
        row('POST /tags/bulk, 1 tag', ENTITIES_PER_BULK, oneTag),
        row('POST /tags/bulk, 10 tags', ENTITIES_PER_BULK, tenTags),
        row('POST /tags/bulk repeated (no-op: validation only)', ENTITIES_PER_BULK, repeat),
      ],
      notes: [
        `Baseline: ${SINGLE_REQUESTS} sequential single-entity calls; bulk: ${BULK_REQUESTS} sequential calls of ${ENTITIES_PER_BULK} fresh customers each.`,
        'A changing bulk call writes one transaction per group of entities (each: tag set + link per tag + event; the group: one counter and one liveness check per tag), one after another: 29 entities a transaction with 1 tag, 5 with 10.',
      ],
    },
  ];
};
