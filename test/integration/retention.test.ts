import { afterAll, describe, expect, it, vi } from 'vitest';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { wiring } from '../../functions/wiring';
import { grantsFor } from '../../infra/grants';
import { runAs } from '../../infra/local/aws-guard';
import { invoke, nameOf } from '../../infra/local/lambda';
import { busEvent } from '../../infra/local/event-router';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { deleteClosedConversation } from '../../shared/inbox/purge-conversation';
import { sweepRetention } from '../../shared/inbox/retention';
import { retentionCutoff } from '../../shared/domain/inbox/retention';
import { useMetricSink, type MetricRecord } from '../../shared/observability/metrics';
import { expectError, type Client } from '../support/api';
import { sendUpload, settledFile } from '../support/files';
import { useTestStack } from '../support/stack';
import { direct } from '../../shared/data/unit';
import { conversationKey } from '../../shared/data/entity-keys';
import { conversationList } from '../../shared/data/registry/inbox';
import type { Tenant } from '../../shared/domain/auth/tenant';

const env = useTestStack();
const CONV = '/api/v1/inbox/conversations';
const DAY_MS = 24 * 60 * 60 * 1000;

const sweep = wiring.schedules.find((s) => s.name === 'sweep-retention')!;
/** The sweep at `now`, run as its function (held to its grants, as on AWS): the clock is the sweep's argument. */
const sweepAt = (now: Date) =>
  runAs({ name: nameOf(sweep.target), kind: 'schedule', grants: grantsFor(sweep.target, 'schedule', undefined, wiring.buckets) }, () =>
    sweepRetention(direct, now),
  );

let s3: S3Client | undefined;
afterAll(() => s3?.destroy());
/** A client of the S3 stand-in with the local credentials, outside any function (no grant applies). */
const bucketClient = () => {
  s3 ??= new S3Client({
    endpoint: env.stack.s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return s3;
};
const objectExists = (key: string) =>
  bucketClient()
    .send(new HeadObjectCommand({ Bucket: process.env.FILES_BUCKET!, Key: key }))
    .then(
      () => true,
      (error: { name?: string }) => {
        if (error.name === 'NotFound' || error.name === 'NoSuchKey') return false;
        throw error;
      },
    );

/** Every item left in a conversation's partition (its messages live there). */
const partitionItems = async (tenant: Tenant, id: string) =>
  (
    await dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': conversationKey(tenant, id).pk },
      }),
    )
  ).Items ?? [];

/** A conversation with two messages, one of them holding a ready file; closed unless `status` says otherwise. */
const conversationWithFile = async (api: Client, status: 'closed' | 'open' = 'closed') => {
  const customer = (await api.post('/api/v1/contacts/customers', { name: 'Ada' })).body.data.customer;
  const conversation = (await api.post(CONV, { customerId: customer._id })).body.data.conversation;
  const { id: fileId } = await sendUpload(api, 'notes.txt', new TextEncoder().encode('kept for a while'), 'text/plain');
  expect((await settledFile(api, fileId)).status).toBe('ready');
  expect((await api.post(`${CONV}/${conversation._id}/messages`, { content: 'first' })).status).toBe(201);
  const attached = await api.post(`${CONV}/${conversation._id}/messages`, { content: 'see attached', attachments: [{ fileId }] });
  expect(attached.status, JSON.stringify(attached.body)).toBe(201);
  if (status === 'closed') expect((await api.post(`${CONV}/${conversation._id}/status`, { status: 'closed' })).status).toBe(200);
  return { id: conversation._id as string, customerId: customer._id as string, fileId };
};

/** A closed conversation, nothing in it. */
/**
 * A closed conversation as stored before its closed index (gsi2) and its status lists' entries (gsi3, gsi4) existed:
 * no entries, and a membership item in its status list and its assignee's with its status (it is unassigned).
 */
const storedBeforeIndexes = async (tenant: Tenant, id: string) => {
  const { Attributes } = await dynamo().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: conversationKey(tenant, id),
      UpdateExpression: 'REMOVE gsi2pk, gsi2sk, gsi3pk, gsi3sk, gsi4pk, gsi4sk',
      ReturnValues: 'ALL_NEW',
    }),
  );
  for (const list of ['status:closed', 'assignee:none:status:closed'])
    await dynamo().send(
      new PutCommand({
        TableName: config().TABLE_NAME,
        Item: { ...conversationList.key({ tenant, list, createdAt: Attributes!.createdAt, id }), type: 'CONV_LIST', conversationId: id },
      }),
    );
};

const closedConversation = async (api: Client): Promise<string> => {
  const customer = (await api.post('/api/v1/contacts/customers', { name: 'Bo' })).body.data.customer;
  const { _id: id } = (await api.post(CONV, { customerId: customer._id })).body.data.conversation;
  expect((await api.post(`${CONV}/${id}/status`, { status: 'closed' })).status).toBe(200);
  return id as string;
};

const total = async (api: Client, query = '') => (await api.get(`${CONV}${query}`)).body.data.pagination.total as number;

describe('retention setting', () => {
  it('PATCH /workspace sets closedConversationDays (≥ 30 or null), GET shows it; anything else is a 422', async () => {
    const { api } = await env.tenant();
    expect((await api.get('/api/v1/workspace')).body.data.workspace.retention).toEqual({ closedConversationDays: null });
    const set = await api.patch('/api/v1/workspace', { retention: { closedConversationDays: 30 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data.workspace.retention).toEqual({ closedConversationDays: 30 });
    expect((await api.get('/api/v1/workspace')).body.data.workspace.retention).toEqual({ closedConversationDays: 30 });
    for (const bad of [29, 0, -1, 30.5, '30', 3651, {}]) {
      const res = await api.patch('/api/v1/workspace', { retention: { closedConversationDays: bad } });
      expectError(res, 422, 'VALIDATION_ERROR');
    }
    expectError(await api.patch('/api/v1/workspace', { retention: null }), 422, 'VALIDATION_ERROR');
    expectError(await api.patch('/api/v1/workspace', { retention: { closedConversationDays: 30, other: 1 } }), 422, 'VALIDATION_ERROR');
    const cleared = await api.patch('/api/v1/workspace', { retention: { closedConversationDays: null } });
    expect(cleared.body.data.workspace.retention).toEqual({ closedConversationDays: null });
  });
});

describe('the retention sweep', () => {
  it('deletes closed conversations past the retention with their messages and files; keeps younger, open and reopened ones, and other workspaces', async () => {
    const t = await env.tenant();
    const other = await env.tenant();
    const old = await conversationWithFile(t.api);
    const open = await conversationWithFile(t.api, 'open');
    const reopened = await conversationWithFile(t.api);
    expect((await t.api.post(`${CONV}/${reopened.id}/status`, { status: 'open' })).status).toBe(200);
    const theirs = await conversationWithFile(other.api);
    for (const w of [t, other]) await w.api.patch('/api/v1/workspace', { retention: { closedConversationDays: 60 } });
    expect(await total(t.api)).toBe(3);

    // 31 days on, a retention of 60 days keeps everything: the closed conversation is younger than that.
    const later = new Date(Date.now() + 31 * DAY_MS);
    await sweepAt(later);
    expect(await total(t.api)).toBe(3);

    await t.api.patch('/api/v1/workspace', { retention: { closedConversationDays: 30 } });
    const counts = await sweepAt(later);
    expect(counts).toMatchObject({ conversations: 1, messages: 2, more: false });
    // The sweep counts the files it removed itself; the conversation's deleted event removes them too, whichever comes first.
    expect([0, 1]).toContain(counts.files);

    expectError(await t.api.get(`${CONV}/${old.id}`), 404, 'NOT_FOUND');
    expect(await partitionItems(t.tenant, old.id)).toEqual([]);
    expectError(await t.api.get(`/api/v1/files/${old.fileId}`), 404, 'NOT_FOUND');
    await vi.waitFor(async () => expect(await objectExists(`${t.tenant}/${old.fileId}`)).toBe(false), { timeout: 10_000 });
    for (const kept of [open, reopened]) {
      expect((await t.api.get(`${CONV}/${kept.id}`)).status).toBe(200);
      expect((await t.api.get(`${CONV}/${kept.id}/messages`)).body.data.messages).toHaveLength(2);
      expect(await objectExists(`${t.tenant}/${kept.fileId}`)).toBe(true);
    }
    // Totals stay exact: the list's, the status list's, the customer's, and the files'.
    expect(await total(t.api)).toBe(2);
    expect(await total(t.api, '?status=closed')).toBe(0);
    expect(await total(t.api, `?customerId=${old.customerId}`)).toBe(0);
    expect((await t.api.get('/api/v1/files')).body.data.pagination.total).toBe(2);
    expect((await t.api.delete(`/api/v1/contacts/customers/${old.customerId}`)).status).toBe(200);

    // The other workspace set 60 days: its closed conversation stays whole.
    expect((await other.api.get(`${CONV}/${theirs.id}`)).status).toBe(200);
    expect((await other.api.get(`${CONV}/${theirs.id}/messages`)).body.data.messages).toHaveLength(2);

    // Nothing left to do: a second run deletes nothing.
    expect(await sweepAt(later)).toMatchObject({ conversations: 0, messages: 0, files: 0 });
  });

  it('is bounded per run and resumes: a run cut at its batch leaves each conversation whole or gone, the next finishes', async () => {
    const t = await env.tenant();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await conversationWithFile(t.api)).id);
    await t.api.patch('/api/v1/workspace', { retention: { closedConversationDays: 30 } });
    const later = new Date(Date.now() + 31 * DAY_MS);
    const first = await runAs(
      { name: nameOf(sweep.target), kind: 'schedule', grants: grantsFor(sweep.target, 'schedule', undefined, wiring.buckets) },
      () => sweepRetention(direct, later, 2),
    );
    expect(first).toMatchObject({ conversations: 2, more: true });
    const left = await Promise.all(ids.map(async (id) => (await t.api.get(`${CONV}/${id}`)).status));
    expect(left.filter((s) => s === 200)).toHaveLength(1);
    const survivor = ids[left.indexOf(200)]!;
    expect((await t.api.get(`${CONV}/${survivor}/messages`)).body.data.messages).toHaveLength(2);
    expect(await total(t.api)).toBe(1);
    expect(await sweepAt(later)).toMatchObject({ conversations: 1, messages: 2 });
    expect(await total(t.api)).toBe(0);
  });

  it('finishes a purge a crash cut after its transaction: the conversation is gone at once, its tombstone, messages and files by the next run', async () => {
    const t = await env.tenant();
    const c = await conversationWithFile(t.api);
    await t.api.patch('/api/v1/workspace', { retention: { closedConversationDays: 30 } });
    const later = new Date(Date.now() + 31 * DAY_MS);
    // What a sweep that died right after the purge's transaction leaves: the conversation deleted, its tombstone in the index.
    expect(await deleteClosedConversation(direct, t.tenant, c.id, retentionCutoff(later, 30), later)).toBe(true);
    expectError(await t.api.get(`${CONV}/${c.id}`), 404, 'NOT_FOUND');
    expectError(await t.api.get(`${CONV}/${c.id}/messages`), 404, 'NOT_FOUND');
    // The purge's event also has its consumer delete the files and messages (as for any deleted conversation), so
    // they may be gone before the next run; the tombstone stays for that run to find.
    expect((await partitionItems(t.tenant, c.id)).map((i) => i.type)).toContain('CONV_PURGE');
    expect(await sweepAt(later)).toMatchObject({ conversations: 0 });
    expect(await partitionItems(t.tenant, c.id)).toEqual([]);
    expectError(await t.api.get(`/api/v1/files/${c.fileId}`), 404, 'NOT_FOUND');
    expect(await total(t.api)).toBe(0);
  });

  it('backfills the closed index: conversations closed before it existed are indexed by pages, resuming, then swept', async () => {
    const t = await env.tenant();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await closedConversation(t.api));
    const reopened = { id: await closedConversation(t.api) };
    const item = async (id: string) =>
      (await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: conversationKey(t.tenant, id), ConsistentRead: true })))
        .Item!;
    // As stored before the index existed: closed, and no entry.
    for (const id of [...ids, reopened.id]) await storedBeforeIndexes(t.tenant, id);
    const before = await item(ids[0]!);
    expect((await t.api.post(`${CONV}/${reopened.id}/status`, { status: 'open' })).status).toBe(200);
    await t.api.patch('/api/v1/workspace', { retention: { closedConversationDays: 30 } });
    const later = new Date(Date.now() + 31 * DAY_MS);
    expect(await sweepAt(new Date())).toMatchObject({ indexed: 3, conversations: 0 });
    // Indexed at its last change, the version unmoved; a second run has nothing left to index.
    expect(await item(ids[0]!)).toMatchObject({ version: before.version, gsi2sk: `${before.updatedAt}#${ids[0]}` });
    expect((await item(reopened.id)).gsi2pk).toBeUndefined();
    expect(await sweepAt(new Date())).toMatchObject({ indexed: 0 });

    // Bounded: with room for 2 a run, the backfill stops with work left and resumes at its cursor.
    const u = await env.tenant();
    const theirs: string[] = [];
    for (let i = 0; i < 3; i++) theirs.push(await closedConversation(u.api));
    for (const id of theirs) await storedBeforeIndexes(u.tenant, id);
    await u.api.patch('/api/v1/workspace', { retention: { closedConversationDays: 30 } });
    const run = (batch: number) =>
      runAs({ name: nameOf(sweep.target), kind: 'schedule', grants: grantsFor(sweep.target, 'schedule', undefined, wiring.buckets) }, () =>
        sweepRetention(direct, later, 200, batch),
      );
    // Every other retaining workspace's backfill is done, so the 2 go to this one's (and t's conversations are swept).
    expect(await run(2)).toMatchObject({ indexed: 2, more: true });
    expect(await total(u.api)).toBe(1);
    expect(await run(2)).toMatchObject({ indexed: 1, more: false });
    expect(await total(u.api)).toBe(0);
    expect(await total(t.api)).toBe(1);
  });

  it('runs hourly as its own function, logging and emitting its counters', async () => {
    const metrics: MetricRecord[] = [];
    const undo = useMetricSink((m) => metrics.push(m));
    try {
      const counts = await invoke(
        sweep.target,
        { kind: 'schedule' },
        busEvent('aws.scheduler', 'Scheduled Event', { schedule: sweep.name }),
      );
      expect(counts).toMatchObject({ conversations: expect.any(Number), messages: expect.any(Number), files: expect.any(Number) });
    } finally {
      undo();
    }
    expect(metrics.flatMap((m) => m.values.map((v) => v.name))).toEqual([
      'RetentionConversationsDeleted',
      'RetentionMessagesDeleted',
      'RetentionFilesDeleted',
      'RetentionConversationsIndexed',
    ]);
    expect(sweep.everyMinutes).toBe(60);
  });
});
