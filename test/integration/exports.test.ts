import { describe, expect, it, vi } from 'vitest';
import { parse } from 'csv-parse/sync';
import type { Client } from '../support/api';
import { expectError } from '../support/api';
import { useTestStack } from '../support/stack';
import { exportObjectKey } from '../../shared/domain/exports/export';
import { testTenant } from '../../shared/domain/auth/tenant';

const env = useTestStack();

const CUSTOMER_EXPORTS = '/api/v1/contacts/customers/exports';
const LEAD_EXPORTS = '/api/v1/crm/leads/exports';

/** The export once the worker has finished it (the queue poller runs it within a second or two). */
const finished = async (api: Client, path: string, id: string) => {
  for (let i = 0; i < 200; i++) {
    const res = await api.get(`${path}/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (['completed', 'failed'].includes(res.body.data.export.status)) return res.body.data.export;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`export ${id} did not finish`);
};

const exportCsv = async (api: Client, path: string, body: unknown = {}) => {
  const started = await api.post(path, body);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  expect(started.body.data.export).toMatchObject({ status: 'queued', rows: 0, completedAt: null });
  const job = await finished(api, path, started.body.data.export._id);
  expect(job.status).toBe('completed');
  const res = await fetch(job.download.url);
  expect(res.status).toBe(200);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
  return { job, res, text, rows: parse(text, { bom: true, columns: true }) as Record<string, string>[] };
};

describe('CSV exports', () => {
  it('exports every customer by cursor pages as a downloadable CSV attachment, formulas neutralised', async () => {
    const { api } = await env.tenant();
    const inputs: Record<string, unknown>[] = Array.from({ length: 100 }, (_, i) => ({
      email: `c${i}@example.com`,
      name: `Customer ${i}`,
    }));
    inputs[0] = {
      email: 'formula@example.com',
      name: '=HYPERLINK("http://evil.example","x")',
      attributes: { note: '+1 cell', at: '@SUM(A1)' },
    };
    inputs[1] = { email: 'tab@example.com', name: '+1 Plus', attributes: { cr: '\rReturn', minus: '-2+3' } };
    // Batches of 34 keep each call short on a busy machine; 101 customers make two pages of 100.
    for (let i = 0; i < inputs.length; i += 34) {
      expect((await api.post('/api/v1/contacts/customers/batch', { idProperty: 'email', inputs: inputs.slice(i, i + 34) })).status).toBe(
        200,
      );
    }
    expect(
      (
        await api.post('/api/v1/contacts/customers/batch', {
          idProperty: 'email',
          inputs: [{ email: 'extra@example.com', name: 'Plain, "quoted"\nname' }],
        })
      ).status,
    ).toBe(200);

    const { job, res, text, rows } = await exportCsv(api, CUSTOMER_EXPORTS);
    expect(job.rows).toBe(101);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="customers-[0-9a-f]{24}\.csv"/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(rows).toHaveLength(101);
    expect(Object.keys(rows[0]!)).toEqual([
      '_id',
      'name',
      'email',
      'phone',
      'externalId',
      'blocked',
      'tagIds',
      'attributes',
      'lastActivityAt',
      'createdAt',
      'updatedAt',
    ]);
    const by = (email: string) => rows.find((r) => r.email === email)!;
    expect(by('formula@example.com').name).toBe(`'=HYPERLINK("http://evil.example","x")`);
    // Tabs and carriage returns never start a stored name (names are trimmed): the unit test covers those cells.
    expect(by('tab@example.com').name).toBe("'+1 Plus");
    expect(by('extra@example.com').name).toBe('Plain, "quoted"\nname');
    // A JSON cell starts with `{`: what it holds is exported as is, and parses back.
    expect(JSON.parse(by('formula@example.com').attributes!)).toEqual({ note: '+1 cell', at: '@SUM(A1)' });
    expect(new Set(rows.map((r) => r.email)).size).toBe(101);
  });

  it('exports with the list filters, and never the other mode’s records', async () => {
    const t = await env.tenant();
    const live = await env.liveMode(t);
    await t.api.post('/api/v1/contacts/customers/batch', {
      idProperty: 'email',
      inputs: [
        { email: 'ann@test.example', name: 'Ann' },
        { email: 'bob@test.example', name: 'Bob' },
      ],
    });
    await live.api.post('/api/v1/contacts/customers', { email: 'ann@live.example', name: 'Ann Live' });
    const testAll = await exportCsv(t.api, CUSTOMER_EXPORTS);
    expect(testAll.rows.map((r) => r.email).sort()).toEqual(['ann@test.example', 'bob@test.example']);
    const testAnn = await exportCsv(t.api, CUSTOMER_EXPORTS, { filter: { name: 'an' } });
    expect(testAnn.rows.map((r) => r.email)).toEqual(['ann@test.example']);
    const liveAll = await exportCsv(live.api, CUSTOMER_EXPORTS);
    expect(liveAll.rows.map((r) => r.email)).toEqual(['ann@live.example']);
    // An export is the mode's own: the other mode's token cannot see it.
    expectError(await live.api.get(`${CUSTOMER_EXPORTS}/${testAll.job._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.get(`${LEAD_EXPORTS}/${testAll.job._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.post(CUSTOMER_EXPORTS, { filter: { name: 'a', email: 'a' } }), 422, 'VALIDATION_ERROR');
  });

  it('runs an export requested under an Idempotency-Key (queued once its record is written), and a replay answers the same export', async () => {
    const t = await env.tenant();
    await t.api.post('/api/v1/contacts/customers', { email: 'keyed@test.example', name: 'Keyed' });
    const headers = { 'idempotency-key': `export-${t.workspaceId}` };
    const started = await t.api.post(CUSTOMER_EXPORTS, {}, headers);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const job = await finished(t.api, CUSTOMER_EXPORTS, started.body.data.export._id);
    expect(job).toMatchObject({ status: 'completed', rows: 1 });
    const replayed = await t.api.post(CUSTOMER_EXPORTS, {}, headers);
    expect(replayed.status).toBe(202);
    expect(replayed.body.data.export._id).toBe(job._id);
  });

  it('exports leads with their value and filters by pipeline', async () => {
    const { api } = await env.tenant();
    const pipeline = (await api.post('/api/v1/crm/pipelines', { name: 'Sales' })).body.data.pipeline;
    const other = (await api.post('/api/v1/crm/pipelines', { name: 'Other' })).body.data.pipeline;
    await api.post('/api/v1/crm/leads', { title: '-10% deal', pipelineId: pipeline._id, value: { amount: 125000, currency: 'EUR' } });
    await api.post('/api/v1/crm/leads', { title: 'Elsewhere', pipelineId: other._id });
    const { rows, res } = await exportCsv(api, LEAD_EXPORTS, { filter: { pipelineId: pipeline._id } });
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="leads-/);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      title: "'-10% deal",
      pipelineId: pipeline._id,
      valueAmount: '125000',
      valueCurrency: 'EUR',
      status: 'open',
    });
  });

  it('keeps an export 7 days: then it reads as gone and the bucket’s lifecycle rule deletes its CSV', async () => {
    const t = await env.tenant();
    await t.api.post('/api/v1/contacts/customers', { email: 'kept@test.example', name: 'Kept' });
    const { job } = await exportCsv(t.api, CUSTOMER_EXPORTS);
    const csv = `${process.env.FILES_BUCKET}/${exportObjectKey(testTenant(t.workspaceId), job._id)}`;
    const DAY = 24 * 3600 * 1000;

    expect(await env.stack.expireObjects(new Date(Date.now() + 6 * DAY))).not.toContain(csv);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(job.createdAt) + 7 * DAY - 60_000 });
    try {
      expect((await t.api.get(`${CUSTOMER_EXPORTS}/${job._id}`)).status).toBe(200);
      vi.setSystemTime(Date.parse(job.createdAt) + 7 * DAY);
      expectError(await t.api.get(`${CUSTOMER_EXPORTS}/${job._id}`), 404, 'NOT_FOUND');
    } finally {
      vi.useRealTimers();
    }
    const expired = await env.stack.expireObjects(new Date(Date.now() + 8 * DAY));
    expect(expired).toContain(csv);
  });
});
