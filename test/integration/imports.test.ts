import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { createParleyClient } from '../../packages/client/src/client';
import { importCustomers, importLeads, ParleyJobFailedError } from '../../packages/client/src/index';
import { exportTo, importPath } from '../../packages/cli/bulk';
import type { Session } from '../../packages/cli/session';
import { gatedFetch } from '../support/response-gate';
import { parse } from 'csv-parse/sync';
import type { Client } from '../support/api';
import { expectError } from '../support/api';
import { postForm } from '../support/files';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { nameOf, onInvoke } from '../../infra/local/lambda';
import { wiring } from '../../functions/wiring';

const env = useTestStack();

const CUSTOMER_IMPORTS = '/api/v1/contacts/customers/imports';
const LEAD_IMPORTS = '/api/v1/crm/leads/imports';

const utf8 = (text: string) => new TextEncoder().encode(text);

/** The import once the bulk worker has finished it. */
const finished = async (api: Client, path: string, id: string) => {
  for (let i = 0; i < 400; i++) {
    const res = await api.get(`${path}/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (['completed', 'failed'].includes(res.body.data.import.status)) return res.body.data.import;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`import ${id} did not finish`);
};

/** Creates an import, uploads `bytes` through its presigned POST and waits for its outcome. */
const importCsv = async (api: Client, path: string, body: unknown, bytes: Uint8Array) => {
  const created = await api.post(path, body);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { import: job, upload } = created.body.data;
  expect(job).toMatchObject({ status: 'awaiting_upload', counts: { rows: 0, created: 0, updated: 0, unchanged: 0, failed: 0 } });
  const sent = await postForm(upload, bytes, 'text/csv');
  expect(sent.status, sent.body).toBe(204);
  return finished(api, path, job._id);
};

const errorsOf = async (api: Client, path: string, id: string) => {
  const res = await api.get(`${path}/${id}/errors`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(res.headers.get('content-disposition')).toContain('attachment');
  return parse(res.body as string, { bom: true, columns: true }) as Record<string, string>[];
};

describe('CSV imports of customers', () => {
  it('upserts by email: quoted fields, line breaks inside quotes, a BOM, CRLF; mapped, skipped and attribute columns; failed rows reported', async () => {
    const { api, workspaceId } = await env.tenant();
    const existing = (await api.post('/api/v1/contacts/customers', { email: 'old@example.com', name: 'Old Name' })).body.data.customer;
    await api.post('/api/v1/contacts/customers', { email: 'same@example.com', name: 'Same' });
    const csv =
      '\uFEFFE-mail,name,Company,Notes\r\n' +
      'ada@example.com,"Lovelace, Ada","Analytical\r\nEngines",ignored\r\n' +
      'OLD@example.com,New Name,,\r\n' +
      'same@example.com,Same,,\r\n' +
      'not-an-email,Bad,,\r\n' +
      '\r\n' +
      'short@example.com,Short\r\n' +
      'ada@example.com,Ada Again,,\r\n' +
      'grace@example.com,"Grace ""Amazing"" Hopper",=cmd,\r\n';
    const job = await importCsv(
      api,
      CUSTOMER_IMPORTS,
      { idProperty: 'email', columns: { 'E-mail': 'email', Company: 'attributes.company', Notes: null } },
      utf8(csv),
    );
    expect(job).toMatchObject({
      status: 'completed',
      error: null,
      counts: { rows: 7, created: 2, updated: 2, unchanged: 1, failed: 2 },
    });
    expect(job.startedAt).not.toBeNull();

    const list = async (email: string) =>
      (await api.get(`/api/v1/contacts/customers?email=${encodeURIComponent(email)}`)).body.data.customers;
    expect(await list('ada@example.com')).toMatchObject([{ name: 'Ada Again', attributes: { company: 'Analytical\r\nEngines' } }]);
    expect(await list('grace@example.com')).toMatchObject([{ name: 'Grace "Amazing" Hopper', attributes: { company: '=cmd' } }]);
    expect((await api.get(`/api/v1/contacts/customers/${existing._id}`)).body.data.customer.name).toBe('New Name');

    const errors = await errorsOf(api, CUSTOMER_IMPORTS, job._id);
    expect(errors).toEqual([
      { line: '6', reason: expect.stringContaining('email'), 'E-mail': 'not-an-email', name: 'Bad', Company: '', Notes: '' },
      { line: '8', reason: 'Expected 4 fields, found 2', 'E-mail': 'short@example.com', name: 'Short', Company: '', Notes: '' },
    ]);

    const events = await outboxEvents(workspaceId);
    const types = (type: string) => events.filter((e) => e.eventType === type);
    expect(types('customer.contact.created')).toHaveLength(4); // the two imported, and `old@` and `same@` made beforehand
    expect(types('customer.contact.updated')).toHaveLength(2);
    expect(types('customer.import.started').map((e) => e.data.import)).toMatchObject([{ _id: job._id, status: 'running' }]);
    expect(types('customer.import.finished').map((e) => e.data.import)).toMatchObject([
      { _id: job._id, status: 'completed', counts: job.counts },
    ]);
  });

  it('fails an import whose header names unknown columns, before any row, and says which', async () => {
    const { api } = await env.tenant();
    const job = await importCsv(api, CUSTOMER_IMPORTS, { idProperty: 'email' }, utf8('email,Full Name,Plan\nx@example.com,X,pro\n'));
    expect(job).toMatchObject({ status: 'failed', counts: { rows: 0 } });
    expect(job.error).toContain('Unknown columns: "Full Name", "Plan"');
    expect((await api.get('/api/v1/contacts/customers')).body.data.customers).toEqual([]);
  });

  it('fails an import that is not UTF-8, a CSV without the idProperty column, and an empty CSV, with their reasons', async () => {
    const { api } = await env.tenant();
    const latin1 = Uint8Array.from([...utf8('email,name\nz@example.com,Jos'), 0xe9, ...utf8('\n')]);
    expect((await importCsv(api, CUSTOMER_IMPORTS, { idProperty: 'email' }, latin1)).error).toContain('not valid UTF-8');
    expect((await importCsv(api, CUSTOMER_IMPORTS, { idProperty: 'phone' }, utf8('email\na@example.com\n'))).error).toContain(
      'No column fills "phone"',
    );
    expect((await importCsv(api, CUSTOMER_IMPORTS, { idProperty: 'email' }, utf8('\n\n'))).error).toContain('header row is required');
    expect(
      (await importCsv(api, CUSTOMER_IMPORTS, { idProperty: 'email' }, utf8('email,name\na@example.com,"open quote\n'))).error,
    ).toContain('Malformed CSV');
  });

  it('refuses a mapping to no field (422), answers another kind’s import as 404, and signs an upload of at most 50 MiB', async () => {
    const { api } = await env.tenant();
    expectError(await api.post(CUSTOMER_IMPORTS, { idProperty: 'email', columns: { Plan: 'plan' } }), 422, 'VALIDATION_ERROR');
    expectError(await api.post(CUSTOMER_IMPORTS, { idProperty: 'id' }), 422, 'VALIDATION_ERROR');
    const created = (await api.post(CUSTOMER_IMPORTS, { idProperty: 'email' })).body.data;
    expect(created.upload.maxBytes).toBe(50 * 1024 * 1024);
    const policy = JSON.parse(Buffer.from(created.upload.fields.Policy, 'base64').toString('utf8')) as { conditions: unknown[] };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 50 * 1024 * 1024]);
    expectError(await api.get(`${LEAD_IMPORTS}/${created.import._id}`), 404, 'NOT_FOUND');
    expectError(await api.post(LEAD_IMPORTS, { pipelineId: '0123456789abcdef01234567' }), 422, 'VALIDATION_ERROR');
  });

  it('keeps an import 7 days: then it and its errors CSV read as gone, whether or not the TTL has removed it yet', async () => {
    const { api } = await env.tenant();
    const job = await importCsv(api, CUSTOMER_IMPORTS, { idProperty: 'email' }, utf8('email,name\nnot-an-email,Bad\n'));
    expect(job.counts.failed).toBe(1);
    const DAY = 24 * 3600 * 1000;
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(job.createdAt) + 7 * DAY - 60_000 });
    try {
      expect((await api.get(`${CUSTOMER_IMPORTS}/${job._id}`)).status).toBe(200);
      expect((await api.get(`${CUSTOMER_IMPORTS}/${job._id}/errors`)).status).toBe(200);
      vi.setSystemTime(Date.parse(job.createdAt) + 7 * DAY);
      expectError(await api.get(`${CUSTOMER_IMPORTS}/${job._id}`), 404, 'NOT_FOUND');
      expectError(await api.get(`${CUSTOMER_IMPORTS}/${job._id}/errors`), 404, 'NOT_FOUND');
    } finally {
      vi.useRealTimers();
    }
  });

  it('an import that outlasts one invocation queues the rest for the next, which finishes it row for row', async () => {
    const { api } = await env.tenant();
    const worker = nameOf(wiring.queues.find((q) => q.name === 'bulk')!.consumer);
    let invocations = 0;
    const stop = onInvoke((name) => {
      if (name === worker) invocations++;
      return undefined;
    });
    const rows = 300;
    const csv = ['email,name', ...Array.from({ length: rows }, (_, i) => `slice-${i}@example.com,Customer ${i}`)].join('\n');
    const created = await api.post(CUSTOMER_IMPORTS, { idProperty: 'email' });
    const { import: job, upload } = created.body.data;
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    try {
      expect((await postForm(upload, utf8(csv), 'text/csv')).status).toBe(204);
      const read = async () => (await api.get(`${CUSTOMER_IMPORTS}/${job._id}`)).body.data.import;
      await vi.waitFor(async () => expect((await read()).counts.rows).toBeGreaterThan(0), { timeout: 60_000, interval: 20 });
      // The first invocation's clock passes its time slice: it stops after its chunk and queues the rest.
      vi.setSystemTime(Date.now() + 5 * 60_000);
      await vi.waitFor(async () => expect((await read()).status).toBe('completed'), { timeout: 120_000, interval: 100 });
    } finally {
      vi.useRealTimers();
      stop();
    }
    const done = (await api.get(`${CUSTOMER_IMPORTS}/${job._id}`)).body.data.import;
    expect(done.counts).toEqual({ rows, created: rows, updated: 0, unchanged: 0, failed: 0 });
    expect(invocations).toBeGreaterThanOrEqual(2);
    const listed = await api.get('/api/v1/contacts/customers?limit=1');
    expect(listed.body.data.pagination.total).toBe(rows);
  }, 180_000);
});

describe('CSV imports of leads', () => {
  it('creates leads in the pipeline, resolving stageId and customerEmail; an unknown stage or customer fails that row', async () => {
    const { api, workspaceId } = await env.tenant();
    const pipeline = (await api.post('/api/v1/crm/pipelines', { name: 'Sales' })).body.data.pipeline;
    const [first, second] = pipeline.stages as { _id: string }[];
    const customer = (await api.post('/api/v1/contacts/customers', { email: 'buyer@example.com' })).body.data.customer;
    const csv =
      'Deal,stageId,customerEmail,valueAmount,valueCurrency\n' +
      `Big deal,${second!._id},BUYER@example.com,125000,EUR\n` +
      'Default stage,,,,\n' +
      'Lost stage,0123456789abcdef01234567,,,\n' +
      'Nobody,,ghost@example.com,,\n' +
      'No currency,,,100,\n';
    const job = await importCsv(api, LEAD_IMPORTS, { pipelineId: pipeline._id, columns: { Deal: 'title' } }, utf8(csv));
    expect(job).toMatchObject({ status: 'completed', counts: { rows: 5, created: 2, failed: 3 } });
    const leads = (await api.get(`/api/v1/crm/leads?pipelineId=${pipeline._id}`)).body.data.leads as Record<string, unknown>[];
    expect(leads).toHaveLength(2);
    expect(leads.find((l) => l.title === 'Big deal')).toMatchObject({
      stageId: second!._id,
      customerId: customer._id,
      value: { amount: 125000, currency: 'EUR' },
    });
    expect(leads.find((l) => l.title === 'Default stage')).toMatchObject({ stageId: first!._id, customerId: null });
    const errors = await errorsOf(api, LEAD_IMPORTS, job._id);
    expect(errors.map((e) => [e.line, e.reason])).toEqual([
      ['4', expect.stringContaining('No such stage')],
      ['5', 'customerEmail: No customer has the email ghost@example.com'],
      ['6', expect.stringContaining('valueAmount and valueCurrency go together')],
    ]);
    const events = await outboxEvents(workspaceId);
    expect(events.filter((e) => e.eventType === 'crm.lead.created')).toHaveLength(2);
    expect(events.filter((e) => e.eventType === 'crm.import.finished').map((e) => e.data.import)).toMatchObject([{ _id: job._id }]);
  });
});

describe('the client helpers and the CLI commands', () => {
  const parleyFor = (t: { token: string; workspaceId: string }) =>
    createParleyClient({ baseUrl: env.stack.baseUrl, token: t.token, workspaceId: t.workspaceId, fetch: gatedFetch });

  it('imports customers and leads from a CSV and waits for the counts; a failed import is an error naming its reason', async () => {
    const t = await env.tenant();
    const parley = parleyFor(t);
    const seen: string[] = [];
    const customers = await importCustomers(parley, 'email,name\nhelper-1@example.com,Ann\nhelper-2@example.com,Bob\n', 'email', {
      pollMs: 50,
      onProgress: (job) => seen.push(job.status),
    });
    expect(customers).toMatchObject({ status: 'completed', counts: { rows: 2, created: 2, failed: 0 } });
    expect(seen.every((s) => ['queued', 'running', 'awaiting_upload'].includes(s))).toBe(true);
    const pipeline = (await t.api.post('/api/v1/crm/pipelines', { name: 'Helpers' })).body.data.pipeline;
    const leads = await importLeads(parley, 'title,customerEmail\nDeal,helper-1@example.com\nOther,nobody@example.com\n', pipeline._id, {
      pollMs: 50,
    });
    expect(leads).toMatchObject({ status: 'completed', counts: { rows: 2, created: 1, failed: 1 } });
    const failed = await importCustomers(parley, 'email,shoe size\nx@example.com,42\n', 'email', { pollMs: 50 }).catch((e) => e);
    expect(failed).toBeInstanceOf(ParleyJobFailedError);
    expect(failed.message).toMatch(/shoe size/);
  });

  it('parley import reads a file and waits for its counts; parley export streams the CSV out, formula cells neutralised', async () => {
    const t = await env.tenant();
    const session = { api: parleyFor(t), workspaceId: t.workspaceId, livemode: false } as Session;
    const dir = mkdtempSync(join(tmpdir(), 'parley-import-'));
    try {
      writeFileSync(join(dir, 'customers.csv'), 'email,name\ncli-1@example.com,=SUM(A1)\ncli-2@example.com,Cleo\n');
      const job = await importPath(session, 'customers', join(dir, 'customers.csv'), {});
      expect(job.counts).toMatchObject({ rows: 2, created: 2 });
      await expect(importPath(session, 'leads', join(dir, 'customers.csv'), {})).rejects.toThrow(/--pipeline/);
      await expect(importPath(session, 'customers', join(dir, 'missing.csv'), {})).rejects.toThrow(/Cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const chunks: Buffer[] = [];
    const out = new Writable({
      write: (chunk: Buffer, _encoding, next) => {
        chunks.push(chunk);
        next();
      },
    });
    const done = await exportTo(session, 'customers', {}, out);
    expect(done).toMatchObject({ status: 'completed', rows: 2 });
    const rows = parse(Buffer.concat(chunks).toString('utf8'), { bom: true, columns: true }) as Record<string, string>[];
    expect(rows.map((r) => [r.email, r.name]).sort()).toEqual([
      ['cli-1@example.com', "'=SUM(A1)"],
      ['cli-2@example.com', 'Cleo'],
    ]);
  });
});
