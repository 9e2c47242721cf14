import type { Tenant } from '../../shared/domain/auth/tenant';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../infra/local/stack';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { objectId } from '../../shared/ids';
import { bumpCounter } from '../../shared/data/counters';
import { createdLeadItems } from '../../shared/data/leads';
import { listCounter, listPk } from '../../shared/data/lists';
import { stageCountsAdded } from '../../shared/data/pipelines';
import { createPipeline } from '../../shared/crm/pipelines';
import { tenantPk } from '../../shared/data/keys';
import { queryPage } from '../../shared/data/query';
import { createItem } from '../../shared/data/transact';
import { direct } from '../../shared/data/unit';
import { newLead } from '../../shared/domain/crm/lead';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { createTenant } from '../support/tenants';
import { batchWriteAll, rotatingTokens } from './seed';
import { measure, type Latency, type Section } from './measure';

const LEADS = 10_000;
const LIMIT = 20;
const DEEP_PAGE = 400;
const AMOUNT = 10_000;

/** Loads LEADS leads into the pipeline's first stage: the same items, lists and counters a create writes. */
const seed = async (ws: Tenant, pipeline: Awaited<ReturnType<typeof createPipeline>>) => {
  const stage = pipeline.stages[0]!;
  const start = Date.now() - LEADS * 1000;
  const items: Record<string, unknown>[] = [];
  let lists: string[] = [];
  for (let i = 0; i < LEADS; i++) {
    const at = new Date(start + i * 1000);
    const lead = newLead({ title: `Lead ${i}`, value: { amount: AMOUNT, currency: 'USD' } }, pipeline, stage, objectId(at.getTime()), at);
    const created = createdLeadItems(ws, lead);
    items.push(...created.items);
    lists = created.lists;
  }
  await batchWriteAll(items);
  await direct.commit([
    ...lists.map((list) => bumpCounter(ws, listCounter('lead', list), LEADS)),
    ...stageCountsAdded(ws, pipeline._id, stage._id, LEADS, { USD: LEADS * AMOUNT }),
  ]);
  return stage;
};

export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId, tenant } = await createTenant(['admin:all']);
  const pipeline = await createPipeline(direct, tenant, { name: 'Bench pipeline' }, new Date());
  const seedStarted = Date.now();
  const stage = await seed(tenant, pipeline);
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  const target = pipeline.stages[1]!;

  const reads = await rotatingTokens(workspaceId, ['crm:read', 'crm:update'], 1000, RATE_LIMITS.read - 5);
  const writes = await rotatingTokens(workspaceId, ['crm:read', 'crm:update'], 400, RATE_LIMITS.write - 5);
  const headers = (token: string) => ({ authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId });
  const list = async (query: string) => {
    const res = await fetch(`${stack.baseUrl}/api/v1/crm/leads?${query}`, { headers: headers(reads()) });
    const body = (await res.json()) as { data: { leads: unknown[]; pagination: { total: number } } };
    if (res.status !== 200 || body.data.leads.length !== LIMIT || body.data.pagination.total !== LEADS)
      throw new Error(`unexpected ${res.status}`);
  };

  const partition = { pk: listPk(tenant, 'lead', `stage:${stage._id}`), newestFirst: true };
  const deepCursor = (await queryPage(partition, { limit: LIMIT, page: DEEP_PAGE - 1 })).nextCursor!;
  const bareQuery = () =>
    dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': partition.pk },
        ScanIndexForward: false,
        Limit: LIMIT,
      }),
    );
  const one = { requests: 100, concurrency: 1 };
  const baseline = await measure(bareQuery, one);
  const rows: [string, Latency][] = [
    ['bare DynamoDB Query, one page of 20 list items (in-process)', baseline],
    [`GET ?stageId=…&limit=20 (page 1)`, await measure(() => list(`stageId=${stage._id}&limit=${LIMIT}`), one)],
    [
      `GET ?stageId=…&limit=20&cursor=… (at page ${DEEP_PAGE})`,
      await measure(() => list(`stageId=${stage._id}&limit=${LIMIT}&cursor=${deepCursor}`), one),
    ],
    [
      `GET ?pipelineId=…&stageId=…&limit=20 (page 1)`,
      await measure(() => list(`pipelineId=${pipeline._id}&stageId=${stage._id}&limit=${LIMIT}`), one),
    ],
  ];

  // Moves: each request moves a different seeded lead out of the first stage (newest first).
  const leads = (await queryPage(partition, { limit: 300 })).items.map((i) => i.entityId as string);
  let nextLead = 0;
  const move = async () => {
    const res = await fetch(`${stack.baseUrl}/api/v1/crm/leads/${leads[nextLead++]}/move`, {
      method: 'POST',
      headers: { ...headers(writes()), 'content-type': 'application/json' },
      body: JSON.stringify({ stageId: target._id }),
    });
    if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };
  const bareTx = () => direct.commit([createItem({ pk: tenantPk(tenant, 'BENCH', objectId()), sk: 'X' })]);
  const serial = { requests: 80, concurrency: 1, warmup: 10 };
  const parallel = { requests: 200, concurrency: 8, warmup: 0 };
  const txSerial = await measure(bareTx, serial);
  const movesSerial = await measure(move, serial);
  const txParallel = await measure(bareTx, parallel);
  const movesParallel = await measure(move, parallel);

  const row =
    (base: Latency) =>
    ([name, l]: [string, Latency]) => [name, l.concurrency, l.p50Ms, l.p99Ms, l.rps, l.p50Ms / base.p50Ms, l.rps / base.rps];
  return [
    {
      title: `GET /api/v1/crm/leads of one stage, in a pipeline of ${LEADS.toLocaleString('en')} leads`,
      columns: ['request', 'concurrency', 'p50 ms', 'p99 ms', 'req/s', 'p50 ÷ bare Query', 'req/s ÷ bare'],
      rows: rows.map(row(baseline)),
      notes: [
        `Seeded ${LEADS} leads into one stage (+ its stay and 7 list memberships each; list and stage counters kept exact) with BatchWrite in ${seedSeconds.toFixed(1)} s.`,
        'A page is one Query on the stage list + one BatchGet of 20 leads + one GetItem for the total (and one GetItem of the pipeline when pipelineId is also given); a cursor keeps that O(limit) at any depth.',
      ],
    },
    {
      title: 'POST /api/v1/crm/leads/{id}/move throughput',
      columns: ['request', 'concurrency', 'p50 ms', 'p99 ms', 'req/s', 'p50 ÷ bare tx', 'req/s ÷ bare tx'],
      rows: [
        ['bare TransactWrite of one Put (in-process)', txSerial] as [string, Latency],
        ['POST move (full pipeline)', movesSerial] as [string, Latency],
      ]
        .map(row(txSerial))
        .concat(
          [
            ['bare TransactWrite of one Put (in-process)', txParallel] as [string, Latency],
            ['POST move (full pipeline)', movesParallel] as [string, Latency],
          ].map(row(txParallel)),
        ),
      notes: [
        'A move is a GetItem of the lead and of the pipeline, then one transaction of about 25 items: the lead (versioned), the closed and the new stay, 2 stage counters, 3 list memberships out and in with their counters, the stage_change activity with its 2 timelines and counters, and 2 events.',
        'Concurrent moves out of one stage share its counter items, so some transactions are cancelled and re-run (TransactionConflict): that is in the concurrency-8 figures.',
      ],
    },
  ];
};
