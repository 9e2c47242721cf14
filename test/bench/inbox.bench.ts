import type { Tenant } from '../../shared/domain/auth/tenant';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../infra/local/stack';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { objectId } from '../../shared/ids';
import { bump, workspaceCounter } from '../../shared/data/counters';
import { createdItems, listPartition } from '../../shared/data/conversations';
import { customerCounting } from '../../shared/data/customers-conversations';
import { conversationsPage } from '../../shared/data/conversations-lists';
import { createCustomer } from '../../shared/contacts/customers';
import { tenantPk } from '../../shared/data/keys';
import { createItem } from '../../shared/data/transact';
import { direct } from '../../shared/data/unit';
import { newConversation } from '../../shared/domain/inbox/conversation';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { createTenant } from '../support/tenants';
import { batchWriteAll, rotatingTokens } from './seed';
import { measure, type Latency, type Section } from './measure';

const CONVERSATIONS = 10_000;
const LIMIT = 20;
const DEEP_PAGE = 250;

/** Loads the workspace straight into the table with BatchWrite: the same items and counters a create writes. */
const seed = async (ws: Tenant, customerId: string) => {
  const start = Date.now() - CONVERSATIONS * 1000;
  const items: Record<string, unknown>[] = [];
  let counts = new Map<string, Record<string, number>>();
  for (let i = 0; i < CONVERSATIONS; i++) {
    const at = new Date(start + i * 1000);
    const created = createdItems(ws, newConversation({ customerId, channel: 'api' }, { _id: objectId(at.getTime()), number: i + 1 }, at));
    items.push(...created.items);
    counts = created.counts;
  }
  await batchWriteAll(items);
  const times = (deltas: Record<string, number>) => Object.fromEntries(Object.entries(deltas).map(([t, d]) => [t, d * CONVERSATIONS]));
  await direct.commit([
    ...[...counts].map(([name, deltas]) => bump(workspaceCounter(ws, name), times(deltas))),
    ...(await customerCounting(ws, customerId, CONVERSATIONS)),
  ]);
  await direct.commit([createItem({ pk: tenantPk(ws), sk: 'SEQUENCE#conversation', n: CONVERSATIONS })]);
};

export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId, tenant } = await createTenant(['admin:all']);
  const customer = await createCustomer(direct, tenant, { name: 'Bench customer' }, new Date());
  const seedStarted = Date.now();
  await seed(tenant, customer._id);
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const reads = await rotatingTokens(workspaceId, ['inbox:read', 'inbox:write'], 2000, RATE_LIMITS.read - 5);
  const writes = await rotatingTokens(workspaceId, ['inbox:read', 'inbox:write'], 400, RATE_LIMITS.write - 5);
  const get = async (query: string) => {
    const res = await fetch(`${stack.baseUrl}/api/v1/inbox/conversations?${query}`, {
      headers: { authorization: `Bearer ${reads()}`, 'x-workspace-id': workspaceId },
    });
    const body = (await res.json()) as { data: { conversations: unknown[]; pagination: { total: number } } };
    if (res.status !== 200 || body.data.conversations.length !== LIMIT || body.data.pagination.total < CONVERSATIONS)
      throw new Error(`unexpected ${res.status}`);
  };
  const create = async () => {
    const res = await fetch(`${stack.baseUrl}/api/v1/inbox/conversations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${writes()}`, 'x-workspace-id': workspaceId, 'content-type': 'application/json' },
      body: JSON.stringify({ customerId: customer._id }),
    });
    if (res.status !== 201) throw new Error(`unexpected ${res.status}`);
    await res.arrayBuffer();
  };

  const open = { pk: listPartition(tenant, 'status:open') };
  const deepCursor = (await conversationsPage(tenant, { list: 'all' }, { limit: LIMIT, page: DEEP_PAGE - 1 })).nextCursor!;
  const bareQuery = () =>
    dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        IndexName: 'gsi3',
        KeyConditionExpression: 'gsi3pk = :pk',
        ExpressionAttributeValues: { ':pk': open.pk },
        ScanIndexForward: false,
        Limit: LIMIT,
      }),
    );

  const one = { requests: 100, concurrency: 1 };
  const baseline = await measure(bareQuery, one);
  const rows: [string, Latency][] = [
    ['bare DynamoDB Query, one page of 20 list entries (gsi3, in-process)', baseline],
    ['GET ?limit=20 (page 1)', await measure(() => get(`limit=${LIMIT}`), one)],
    [`GET ?limit=20&cursor=… (at page ${DEEP_PAGE})`, await measure(() => get(`limit=${LIMIT}&cursor=${deepCursor}`), one)],
    [
      `GET ?limit=20&page=${DEEP_PAGE} (skips ${(DEEP_PAGE - 1) * LIMIT} keys)`,
      await measure(() => get(`limit=${LIMIT}&page=${DEEP_PAGE}`), { requests: 20, concurrency: 1, warmup: 2 }),
    ],
    ['GET ?limit=20&status=open (page 1, filtered)', await measure(() => get(`limit=${LIMIT}&status=open`), one)],
  ];
  const createBaseline = await measure(() => direct.commit([createItem({ pk: tenantPk(tenant, 'BENCH', objectId()), sk: 'X' })]), {
    requests: 200,
    concurrency: 8,
  });
  const creates = await measure(create, { requests: 200, concurrency: 8 });

  const row = ([name, l]: [string, Latency]) => [name, l.concurrency, l.p50Ms, l.p99Ms, l.rps, l.p50Ms / baseline.p50Ms];
  return [
    {
      title: `GET /api/v1/inbox/conversations on a workspace with ${CONVERSATIONS.toLocaleString('en')} conversations`,
      columns: ['request', 'concurrency', 'p50 ms', 'p99 ms', 'req/s', 'p50 ÷ bare Query'],
      rows: rows.map(row),
      notes: [
        `Seeded ${CONVERSATIONS} conversations (+ 4 list memberships each, totals kept exact) with BatchWrite in ${seedSeconds.toFixed(1)} s.`,
        'A page of `all` is one Query per status list (merged newest first) + one BatchGet of 20 conversations + one BatchGet of the count items for the total; a cursor keeps that O(limit) at any depth, a page number reads the items before it.',
      ],
    },
    {
      title: 'POST /api/v1/inbox/conversations throughput',
      columns: ['request', 'concurrency', 'p50 ms', 'p99 ms', 'req/s', 'p50 ÷ bare tx'],
      rows: [
        [
          'bare TransactWrite of one Put (in-process)',
          createBaseline.concurrency,
          createBaseline.p50Ms,
          createBaseline.p99Ms,
          createBaseline.rps,
          1,
        ],
        [
          'POST create conversation (full pipeline, 15-item transaction)',
          creates.concurrency,
          creates.p50Ms,
          creates.p99Ms,
          creates.rps,
          creates.p50Ms / createBaseline.p50Ms,
        ],
      ],
      notes: [
        'A create is one sequence update (display number) then one transaction: customer check, conversation, 6 list memberships, 6 counters, event.',
      ],
    },
  ];
};
