import { randomInt, randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { DeleteCommand, PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { testTenant, type Tenant } from '../../shared/domain/auth/tenant';
import { newErasure } from '../../shared/domain/erasure/erasure';
import { enqueueBulkJob } from '../../shared/bulk/queue';
import { advanceErasure, csvRewriteClaim, erasureCreation, erasureProgress, startErasure } from '../../shared/data/erasures';
import { exportRowsRemoved } from '../../shared/data/exports';
import { exportObjectKey } from '../../shared/domain/exports/export';
import { runErasure } from '../../shared/erasure/run';
import { lostRace, VersionConflict } from '../../shared/data/retry';
import { customerErasure, getCustomer } from '../../shared/data/customers';
import { customerKey } from '../../shared/data/entity-keys';
import { customerConversations } from '../../shared/data/registry/contacts';
import { direct } from '../../shared/data/unit';
import { steps } from '../../shared/erasure/steps';
import { deleteConversationWhole } from '../../shared/inbox/delete-conversation';
import { objectId } from '../../shared/ids';
import type { Client } from '../support/api';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { createChannel } from '../support/channels';
import { makePipeline } from '../support/crm';
import { postForm, readyFile } from '../support/files';
import { agentId, quarterHourIn } from '../support/members';
import { outboxEvents } from '../support/outbox';
import { createWorkflow, edge, node } from '../support/workflows';
import { useTestStack } from '../support/stack';
import { eventually } from '../support/webhooks';

const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let receiver: Receiver;
// The receiver echoes each delivery, so the response bodies Parley keeps hold the customer's data too.
beforeAll(async () => {
  receiver = await startReceiver((req) => ({ status: 200, body: req.body }));
});
afterAll(() => receiver?.stop());

const CUSTOMERS = '/api/v1/contacts/customers';
const CONV = '/api/v1/inbox/conversations';

/** A marker no other data holds: in a name, an email, attributes, messages and a file. */
const marker = () => `zq${randomUUID().replaceAll('-', '').slice(0, 12)}`;
/** A phone number no other test uses, its digits the marker. */
const phoneMarker = () => `+4470${String(randomInt(10_000_000, 99_999_999))}`;

/** Every item of the table as text: binary attributes decoded (and gunzipped when they are gzip), so a marker inside shows. */
const tableText = async (): Promise<string[]> => {
  const texts: string[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamo().send(new ScanCommand({ TableName: config().TABLE_NAME, ConsistentRead: true, ExclusiveStartKey }));
    for (const item of page.Items ?? []) {
      texts.push(
        JSON.stringify(item, (_, v: unknown) => {
          if (v instanceof Set) return [...v];
          if (v instanceof Uint8Array)
            return v[0] === 0x1f && v[1] === 0x8b ? gunzipSync(v).toString('utf8') : Buffer.from(v).toString('utf8');
          return v;
        }),
      );
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return texts;
};

let s3: S3Client | undefined;
afterAll(() => s3?.destroy());
/** Every object of the files bucket with its key, metadata and bytes as text. */
const bucketText = async (): Promise<string[]> => {
  s3 ??= new S3Client({
    endpoint: env.stack.s3Endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const Bucket = process.env.FILES_BUCKET!;
  const texts: string[] = [];
  let ContinuationToken: string | undefined;
  do {
    const page = await s3.send(new ListObjectsV2Command({ Bucket, ContinuationToken }));
    for (const { Key } of page.Contents ?? []) {
      const object = await s3.send(new GetObjectCommand({ Bucket, Key }));
      texts.push(`${Key} ${object.ContentDisposition} ${JSON.stringify(object.Metadata)} ${await object.Body!.transformToString()}`);
    }
    ContinuationToken = page.NextContinuationToken;
  } while (ContinuationToken);
  return texts;
};

const created = async (api: Client, path: string, body: unknown, key: string, headers?: Record<string, string>) => {
  const res = await api.post(path, body, headers);
  expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body.data[key];
};

/** A customer with a conversation whose message holds a file, everything named with `mark`. */
const customerWithConversation = async (api: Client, mark: string, phone: string, headers?: Record<string, string>) => {
  const customer = await created(
    api,
    CUSTOMERS,
    { name: `Ada ${mark}`, email: `${mark}@example.com`, phone, attributes: { note: `likes ${mark}` } },
    'customer',
    headers,
  );
  const conversation = await created(api, CONV, { customerId: customer._id, subject: `Order ${mark}` }, 'conversation');
  const file = await readyFile(api, `${mark}.txt`, new TextEncoder().encode(`address of ${mark}\n`), 'text/plain');
  await created(api, `${CONV}/${conversation._id}/messages`, { content: `I am ${mark}`, attachments: [{ fileId: file._id }] }, 'message');
  await created(api, `${CONV}/${conversation._id}/messages`, { type: 'note', content: `VIP ${mark}` }, 'message');
  return { customer, conversation, file };
};

/** A bulk job (`key` names it in the answer) once its worker has finished it. */
const finishedJob = (api: Client, path: string, key: 'export' | 'import') =>
  eventually(
    async () => {
      const job = (await api.get(path)).body.data[key];
      return ['completed', 'failed'].includes(job.status) && job;
    },
    30_000,
    100,
  );

/** A completed export of every record of a kind (its path), and its CSV as downloaded. */
const exported = async (api: Client, path: string) => {
  const id = (await created(api, path, {}, 'export'))._id;
  const job = await finishedJob(api, `${path}/${id}`, 'export');
  expect(job.status).toBe('completed');
  return { job, csv: await (await fetch(job.download.url)).text() };
};

/** A customers import by email of `csv`, finished. */
const imported = async (api: Client, csv: string) => {
  const path = `${CUSTOMERS}/imports`;
  const { import: job, upload } = (await api.post(path, { idProperty: 'email' })).body.data;
  expect((await postForm(upload, new TextEncoder().encode(csv), 'text/csv')).status).toBe(204);
  return finishedJob(api, `${path}/${job._id}`, 'import');
};

const completed = (api: Client, id: string) =>
  eventually(
    async () => {
      const res = await api.get(`/api/v1/contacts/erasures/${id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.erasure.status === 'completed' && res.body.data.erasure;
    },
    90_000,
    500,
  );

/** An erasure of the customer, recorded and started as its worker starts it, and a step's context for it (`now` by default). */
const runningErasure = async (tenant: Tenant, customerId: string, now = new Date()) => {
  const erasure = newErasure(objectId(), customerId, new Date());
  await direct.commit(erasureCreation(tenant, erasure, lostRace));
  expect(await startErasure(direct, tenant, erasure._id)).toBe(true);
  return { erasure, ctx: { tenant, erasureId: erasure._id, customerId, now, needles: async () => [customerId] } };
};

/** Two customers, each named by a marker of its own, and a completed export of both. */
const twoCustomersExported = async (api: Client) => {
  const [mark, otherMark] = [marker(), marker()];
  const customer = await created(api, CUSTOMERS, { name: `Ada ${mark}`, email: `${mark}@example.com` }, 'customer');
  await created(api, CUSTOMERS, { name: `Bo ${otherMark}`, email: `${otherMark}@example.com` }, 'customer');
  const { job } = await exported(api, `${CUSTOMERS}/exports`);
  return { customer, mark, otherMark, job };
};

describe('erasure of a customer', () => {
  it('removes the customer from every item of the table and every object of the bucket, and leaves another customer whole', {
    timeout: 120_000,
  }, async () => {
    const { api, workspaceId } = await env.tenant();
    const [mark, phone, otherMark, otherPhone] = [marker(), phoneMarker(), marker(), phoneMarker()];
    await created(api, '/api/v1/integrations/webhooks', { url: receiver.url, events: ['customer.*', 'inbox.*'] }, 'subscription');

    // Workflows each customer's creation starts: one run finishes with the email in its output, one waits an hour.
    const WF = '/api/v1/workflows';
    const onCreated = { type: 'event', eventTypes: ['customer.contact.created'] };
    const workflows = [
      await createWorkflow(api, {
        trigger: onCreated,
        nodes: [node('who', 'set_variable', { name: 'who', value: '{{trigger.contact.email}}' })],
        edges: [],
      }),
      await createWorkflow(api, {
        trigger: onCreated,
        nodes: [node('later', 'wait', { seconds: 3600 }), node('then', 'set_variable', { name: 'x', value: 1 })],
        edges: [edge('later', 'then')],
      }),
    ];
    for (const w of workflows) expect((await api.post(`${WF}/${w._id}/activate`)).status).toBe(200);

    const idempotent = { 'Idempotency-Key': randomUUID() };
    const { customer, conversation, file } = await customerWithConversation(api, mark, phone, idempotent);
    const other = await customerWithConversation(api, otherMark, otherPhone);

    const { pipeline } = await makePipeline(api);
    const lead = await created(api, '/api/v1/crm/leads', { title: 'Renewal', pipelineId: pipeline._id, customerId: customer._id }, 'lead');
    const onLead = await created(api, '/api/v1/crm/activities', { type: 'call', leadId: lead._id, subject: 'Renewal call' }, 'activity');
    const alone = await created(
      api,
      '/api/v1/crm/activities',
      { type: 'note', customerId: customer._id, subject: `Met ${mark}`, body: `${mark} prefers mornings` },
      'activity',
    );
    const task = await created(api, '/api/v1/crm/tasks', { title: 'Call back', customerId: customer._id }, 'task');
    const startAt = quarterHourIn(48);
    const booking = await created(
      api,
      '/api/v1/scheduling/bookings',
      {
        title: `Demo for ${mark}`,
        customerId: customer._id,
        assigneeId: await agentId(api),
        startAt,
        endAt: new Date(Date.parse(startAt) + 30 * 60_000).toISOString(),
        location: `${mark} street`,
        notes: `bring ${mark}`,
      },
      'booking',
    );
    // Bulk CSVs: an import naming the customer (one row matched, one failed row kept for the errors CSV), then
    // an export of the customers (both of them) and of the leads (its lead names the customer's id).
    const importJob = await imported(
      api,
      `email,name,phone\n${mark.toUpperCase()}@example.com,Ada ${mark},${phone}\n${mark}@example.com,Ada ${mark},not a phone\n${otherMark}@example.com,Bo ${otherMark},\n`,
    );
    expect(importJob.counts).toMatchObject({ rows: 3, unchanged: 1, updated: 1, failed: 1 });
    const customersExport = await exported(api, `${CUSTOMERS}/exports`);
    const leadsExport = await exported(api, '/api/v1/crm/leads/exports');
    expect(customersExport.csv).toContain(phone);
    expect(leadsExport.csv).toContain(customer._id);
    const channel = await createChannel(api, { type: 'sandbox', ratePerSecond: 5 });
    const broadcast = await created(
      api,
      '/api/v1/broadcasts',
      { name: 'Spring', channelId: channel._id, audience: { customerIds: [customer._id, other.customer._id] }, content: 'Hi' },
      'broadcast',
    );
    expect((await api.post(`/api/v1/broadcasts/${broadcast._id}/send`)).status).toBeLessThan(300);
    const recipients = async () => (await api.get(`/api/v1/broadcasts/${broadcast._id}/recipients`)).body.data.recipients;
    await eventually(async () => (await recipients()).length === 2, 30_000);
    // The receiver has answered deliveries about the customer (their bodies are kept), and the marker is in the table and bucket.
    await eventually(async () => receiver.received.some((r) => r.body.includes(mark)), 30_000);
    await eventually(async () => (await tableText()).some((t) => t.includes(`"DLVBODY#`) && t.includes(mark)), 30_000);
    expect((await bucketText()).some((t) => t.includes(mark))).toBe(true);
    const runs = async (query: string) => (await api.get(`${WF}/executions?limit=1&${query}`)).body.data.pagination.total;
    await eventually(async () => (await runs('status=completed')) === 2 && (await runs('status=waiting')) === 2, 30_000);
    expect((await tableText()).some((t) => t.includes('WF_STEP') && t.includes(mark))).toBe(true);
    const totalBefore = (await api.get(`${CONV}?limit=1`)).body.data.pagination.total;
    const customersBefore = (await api.get(`${CUSTOMERS}?limit=1`)).body.data.pagination.total;

    const erase = await api.post(`${CUSTOMERS}/${customer._id}/erase`, undefined, { 'Idempotency-Key': randomUUID() });
    expect(erase.status, JSON.stringify(erase.body)).toBe(202);
    expect(erase.body.data.erasure).toMatchObject({ customerId: customer._id, status: 'queued', completedAt: null });
    const done = await completed(api, erase.body.data.erasure._id);
    expect(done.counts).toEqual({
      leads: 1,
      tasks: 1,
      activities: 2,
      bookings: 1,
      broadcastRecipients: 1,
      conversations: 1,
      messages: 2,
      files: 1,
      // The customers export (its row dropped), the leads export (the lead's link emptied), the import's CSV
      // (both rows with its email emptied), and the import's failed row scrubbed.
      bulkCsvs: 3,
      csvRows: 5,
      workflowExecutions: 2,
      customer: 1,
      deliveries: expect.any(Number),
      events: expect.any(Number),
      idempotencyRecords: expect.any(Number),
    });
    expect(done.counts.deliveries).toBeGreaterThan(0);
    expect(done.counts.events).toBeGreaterThan(0);
    expect(done.counts.idempotencyRecords).toBeGreaterThan(0);

    const table = await tableText();
    expect(table.length).toBeGreaterThan(50);
    for (const needle of [mark, phone]) expect(table.filter((t) => t.includes(needle))).toEqual([]);
    const bucket = await bucketText();
    for (const needle of [mark, phone, customer._id]) expect(bucket.filter((t) => t.includes(needle))).toEqual([]);

    // The export's record counts what its CSV holds, and its download (a link signed before or after) is the new CSV.
    const customersAfter = await finishedJob(api, `${CUSTOMERS}/exports/${customersExport.job._id}`, 'export');
    expect(customersAfter.rows).toBe(customersExport.job.rows - 1);
    for (const url of [customersExport.job.download.url, customersAfter.download.url]) {
      const csv = await (await fetch(url)).text();
      expect(csv).toContain(otherMark);
      expect(csv.split('\n').filter(Boolean)).toHaveLength(customersAfter.rows + 1);
    }
    // The leads export keeps its row, with the link emptied; the import's errors CSV keeps the failed line, erased.
    const leadsAfter = await finishedJob(api, `/api/v1/crm/leads/exports/${leadsExport.job._id}`, 'export');
    expect(leadsAfter.rows).toBe(leadsExport.job.rows);
    expect(await (await fetch(leadsAfter.download.url)).text()).toContain(lead._id);
    const errors = await api.get(`${CUSTOMERS}/imports/${importJob._id}/errors`);
    expect(errors.body).toContain('3,Erased: this row named a customer whose personal data was erased');

    // What the API answers: the customer, its conversation and file are gone, and the links to it cleared.
    expect((await api.get(`${CUSTOMERS}/${customer._id}`)).status).toBe(404);
    expect((await api.get(`${CONV}/${conversation._id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/files/${file._id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/crm/leads/${lead._id}`)).body.data.lead.customerId).toBeNull();
    expect((await api.get(`/api/v1/crm/tasks/${task._id}`)).body.data.task.customerId).toBeNull();
    expect((await api.get(`/api/v1/crm/activities/${onLead._id}`)).body.data.activity).toMatchObject({
      leadId: lead._id,
      customerId: null,
    });
    expect((await api.get(`/api/v1/crm/activities/${alone._id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/scheduling/bookings/${booking._id}`)).body.data.booking).toMatchObject({
      title: 'Erased',
      notes: null,
      location: null,
    });
    expect((await recipients()).map((r: { customerId: string }) => r.customerId)).toEqual([other.customer._id]);
    // Exact totals after the deletion.
    expect((await api.get(`${CONV}?limit=1`)).body.data.pagination.total).toBe(totalBefore - 1);
    expect((await api.get(`${CUSTOMERS}?limit=1`)).body.data.pagination.total).toBe(customersBefore - 1);
    expect((await api.get(`${CONV}?customerId=${customer._id}`)).body.data.pagination.total).toBe(0);
    // The other customer's runs stay (the waiting one still waits); every execution total counts them alone.
    expect([await runs(''), await runs('status=completed'), await runs('status=waiting')]).toEqual([2, 1, 1]);
    for (const w of workflows) {
      expect([
        await runs(`workflowId=${w._id}`),
        (await runs(`workflowId=${w._id}&status=waiting`)) + (await runs(`workflowId=${w._id}&status=completed`)),
      ]).toEqual([1, 1]);
    }

    // The other customer is whole.
    expect((await api.get(`${CUSTOMERS}/${other.customer._id}`)).body.data.customer.email).toBe(`${otherMark}@example.com`);
    const messages = (await api.get(`${CONV}/${other.conversation._id}/messages`)).body.data.messages;
    expect(messages.map((m: { content: string }) => m.content).sort()).toEqual([`I am ${otherMark}`, `VIP ${otherMark}`]);
    expect((await api.get(`/api/v1/files/${other.file._id}`)).body.data.file.status).toBe('ready');
    expect((await bucketText()).some((t) => t.includes(otherMark))).toBe(true);

    // One event, naming the id alone.
    const erased = await eventually(async () => {
      const events = await outboxEvents(workspaceId, 'customer.contact.erased');
      return events.length > 0 && events;
    });
    expect(erased.map((e) => e.data)).toEqual([{ contact: { _id: customer._id } }]);

    // Asking again answers the same erasure, completed; an unknown customer is a 404.
    const again = await api.post(`${CUSTOMERS}/${customer._id}/erase`);
    expect(again.status).toBe(202);
    expect(again.body.data.erasure).toMatchObject({ _id: done._id, status: 'completed' });
    expect((await api.post(`${CUSTOMERS}/${objectId()}/erase`)).status).toBe(404);
    expect((await api.get(`/api/v1/contacts/erasures/${objectId()}`)).status).toBe(404);
  });

  it('a job interrupted mid-conversation resumes where it stopped when its message comes back, counting each removal once', {
    timeout: 60_000,
  }, async () => {
    const { api, workspaceId } = await env.tenant();
    const mark = marker();
    const { customer } = await customerWithConversation(api, mark, phoneMarker());
    const tenant = testTenant(workspaceId);
    // A run that died after deleting the file and before the messages: the job is running, at its conversations step.
    const { erasure, ctx } = await runningErasure(tenant, customer._id);
    for (const step of ['leads', 'tasks', 'activities', 'bookings', 'broadcastRecipients'] as const) await steps[step](ctx);
    for (let step = 0; step < 5; step++) await advanceErasure(direct, tenant, erasure._id, step);
    const crash = new Error('killed');
    const conversationId = (await api.get(`${CONV}?customerId=${customer._id}`)).body.data.conversations[0]._id;
    await expect(
      deleteConversationWhole(direct, tenant, conversationId, new Date(), (counted, ids) => {
        if (counted.messages !== undefined) throw crash;
        return erasureProgress(tenant, erasure._id, counted, ids);
      }),
    ).rejects.toBe(crash);
    const midway = (await api.get(`/api/v1/contacts/erasures/${erasure._id}`)).body.data.erasure;
    expect(midway).toMatchObject({ status: 'running', counts: { files: 1, messages: 0, conversations: 0 } });

    // The message comes back twice, the two runs side by side (a redelivery while the first runs), and once more
    // through the queue: each removal counts once.
    const message = { tenant, kind: 'erasure', erasureId: erasure._id } as const;
    await Promise.all([runErasure(direct, message, () => new Date()), runErasure(direct, message, () => new Date())]);
    await enqueueBulkJob(direct, message);
    const done = await completed(api, erasure._id);
    expect(done.counts).toMatchObject({ files: 1, messages: 2, conversations: 1, customer: 1 });
    expect((await tableText()).filter((t) => t.includes(mark))).toEqual([]);
    await enqueueBulkJob(direct, { tenant, kind: 'erasure', erasureId: erasure._id });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await outboxEvents(workspaceId, 'customer.contact.erased')).map((e) => e.data)).toEqual([{ contact: { _id: customer._id } }]);
  });

  it('the workflow executions step run twice side by side deletes a waiting run once: counted once, totals exact', {
    timeout: 60_000,
  }, async () => {
    const { api, workspaceId } = await env.tenant();
    const WF = '/api/v1/workflows';
    const w = await createWorkflow(api, {
      trigger: { type: 'event', eventTypes: ['customer.contact.created'] },
      nodes: [node('later', 'wait', { seconds: 3600 }), node('then', 'set_variable', { name: 'x', value: 1 })],
      edges: [edge('later', 'then')],
    });
    expect((await api.post(`${WF}/${w._id}/activate`)).status).toBe(200);
    const mark = marker();
    const customer = await created(api, CUSTOMERS, { name: `Ada ${mark}`, email: `${mark}@example.com` }, 'customer');
    await created(api, CUSTOMERS, { name: 'Bo', email: `${marker()}@example.com` }, 'customer');
    const total = async (query: string) => (await api.get(`${WF}/executions?limit=1&${query}`)).body.data.pagination.total;
    await eventually(async () => (await total('status=waiting')) === 2, 30_000);
    const tenant = testTenant(workspaceId);
    const { erasure, ctx } = await runningErasure(tenant, customer._id);

    await Promise.all([steps.workflowExecutions(ctx), steps.workflowExecutions(ctx)]);
    await steps.workflowExecutions(ctx);
    const counts = (await api.get(`/api/v1/contacts/erasures/${erasure._id}`)).body.data.erasure.counts;
    expect(counts.workflowExecutions).toBe(1);
    expect([await total(''), await total('status=waiting'), await total(`workflowId=${w._id}&status=waiting`)]).toEqual([1, 1, 1]);
    // Its record, index item and step are gone (the customer itself, and its events, are later steps' work).
    expect((await tableText()).filter((t) => t.includes(customer._id) && t.includes('"WF_'))).toEqual([]);
  });

  it('a conversation opened after the customer step read the customer is erased too, before the customer', {
    timeout: 60_000,
  }, async () => {
    const { api, workspaceId } = await env.tenant();
    const mark = marker();
    const customer = await created(api, CUSTOMERS, { name: `Ada ${mark}`, email: `${mark}@example.com` }, 'customer');
    const tenant = testTenant(workspaceId);
    const read = (await getCustomer(tenant, customer._id))!;
    const late = await created(api, CONV, { customerId: customer._id, subject: `Order ${mark}` }, 'conversation');
    // The customer's removal as read before that conversation is refused: it would leave the conversation behind.
    await expect(direct.commit(customerErasure(tenant, read, new Date()), lostRace)).rejects.toBeInstanceOf(VersionConflict);

    const { erasure, ctx } = await runningErasure(tenant, customer._id);
    await steps.customer(ctx);
    expect(await getCustomer(tenant, customer._id)).toBeUndefined();
    expect((await api.get(`${CONV}/${late._id}`)).status).toBe(404);
    expect((await api.get(`/api/v1/contacts/erasures/${erasure._id}`)).body.data.erasure.counts).toMatchObject({
      conversations: 1,
      customer: 1,
    });
    expect((await api.post(CONV, { customerId: customer._id, subject: 'after' })).status).toBe(422);
  });

  it('a conversation left naming a customer an earlier version erased can still be deleted', { timeout: 60_000 }, async () => {
    const { api, workspaceId } = await env.tenant();
    const { customer, conversation } = await customerWithConversation(api, marker(), phoneMarker());
    const tenant = testTenant(workspaceId);
    // What that erasure left: the customer item gone, its count's item a tombstone, the conversation still there.
    const table = config().TABLE_NAME;
    await dynamo().send(new DeleteCommand({ TableName: table, Key: customerKey(tenant, customer._id) }));
    const count = customerConversations.key({ tenant, customerId: customer._id });
    await dynamo().send(new PutCommand({ TableName: table, Item: { ...count, type: 'CUSTOMER_CONVERSATIONS', n: 0, gone: true } }));
    const deleted = await api.delete(`${CONV}/${conversation._id}`);
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await api.get(`${CONV}/${conversation._id}`)).status).toBe(404);
  });

  it('an export CSV rewritten 5 days after its export goes when its first version would have, not 7 days after the rewrite', {
    timeout: 60_000,
  }, async () => {
    const { api, workspaceId } = await env.tenant();
    const { customer, mark, job } = await twoCustomersExported(api);
    const tenant = testTenant(workspaceId);
    const DAY = 24 * 3600 * 1000;
    const { ctx } = await runningErasure(tenant, customer._id, new Date(Date.parse(job.createdAt) + 5 * DAY));
    await steps.bulkCsvs(ctx);
    const rewritten = await (await fetch((await api.get(`${CUSTOMERS}/exports/${job._id}`)).body.data.export.download.url)).text();
    expect(rewritten).not.toContain(mark);

    // The rewrite (a new object, made now) keeps the 2 days its export had left: S3 counts them from its creation,
    // rounded up to the next midnight UTC.
    const csv = `${process.env.FILES_BUCKET}/${exportObjectKey(tenant, job._id)}`;
    expect(await env.stack.expireObjects(new Date(Date.now() + DAY))).not.toContain(csv);
    expect(await env.stack.expireObjects(new Date(Date.now() + 3 * DAY))).toContain(csv);
  });

  it('a CSV whose count was committed by a run that died before its rewrite is rewritten by the next run, counted once', {
    timeout: 60_000,
  }, async () => {
    const { api, workspaceId } = await env.tenant();
    const { customer, mark, otherMark, job } = await twoCustomersExported(api);
    expect(job.rows).toBe(2);
    const tenant = testTenant(workspaceId);
    const { erasure } = await runningErasure(tenant, customer._id);
    // What the run that died left: the CSV counted (and the export's rows lowered), the CSV itself unchanged.
    const key = exportObjectKey(tenant, job._id);
    await direct.commit([
      ...csvRewriteClaim(tenant, erasure._id, key, { bulkCsvs: 1, csvRows: 1 }, () => new Error('claimed')),
      exportRowsRemoved(tenant, job._id, 1),
    ]);
    expect(await (await fetch(job.download.url)).text()).toContain(mark);

    await runErasure(direct, { tenant, kind: 'erasure', erasureId: erasure._id }, () => new Date());
    const done = await completed(api, erasure._id);
    expect(done.counts).toMatchObject({ bulkCsvs: 1, csvRows: 1, customer: 1 });
    const after = await finishedJob(api, `${CUSTOMERS}/exports/${job._id}`, 'export');
    expect(after.rows).toBe(1);
    const csv = await (await fetch(after.download.url)).text();
    expect(csv).not.toContain(mark);
    expect(csv).toContain(otherMark);
  });
});
