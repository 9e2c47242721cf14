import { parse } from 'csv-parse/sync';
import { expect, it } from 'vitest';
import { CRASH_AFTER_IMPORT_ROW, FAULT_AFTER_ENV, FAULT_ENV } from '../../infra/local/faults';
import { BULK_QUEUE } from '../../functions/wiring/bulk';
import { IMPORT_CHUNK_ROWS } from '../../shared/domain/imports/import';
import { client, pollData } from '../support/api';
import { useCrashRig } from '../support/child-stack';
import { postForm } from '../support/files';
import { outboxEvents } from '../support/outbox';
import { createTenant } from '../support/tenants';
import { skipVisibilityTimeout } from '../support/visibility';
import { eventually } from '../support/webhooks';

/**
 * The functions run in a child `npm start` that is SIGKILLed right after its 150th committed import row:
 * the first chunk's cursor has moved, the second chunk is half applied with rows in flight. DynamoDB Local
 * and the SQS emulator live in this test process and survive; the S3 stand-in keeps the CSV on disk in the
 * data folder the second child starts from. The import's message comes back once the bulk queue's
 * visibility timeout has passed, which the test skips (`support/visibility.ts`).
 */
const ROWS = 400;
const IMPORTS = '/api/v1/contacts/customers/imports';
const rig = useCrashRig('import-crash');

const email = (i: number) => (i % 50 === 49 ? `broken-${i}` : `c${i}@example.com`);

it(`a ${ROWS}-row import applies each row exactly once, even when its worker is killed mid-chunk`, { timeout: 300_000 }, async () => {
  const tenant = await createTenant();
  const first = await rig.start({ [FAULT_ENV]: CRASH_AFTER_IMPORT_ROW, [FAULT_AFTER_ENV]: '150' });
  const api = client(first.baseUrl, tenant);
  // Every 4th row names a customer that exists (updated), every 50th an invalid email (failed), the rest are new.
  const existing = Array.from({ length: ROWS / 4 }, (_, k) => ({ email: email(4 * k), name: 'Before' }));
  expect((await api.post('/api/v1/contacts/customers/batch', { idProperty: 'email', inputs: existing })).body.data.summary.created).toBe(
    ROWS / 4,
  );
  const csv = ['email,name', ...Array.from({ length: ROWS }, (_, i) => `${email(i)},Row ${i}`)].join('\n');
  const created = (await api.post(IMPORTS, { idProperty: 'email' })).body.data;
  const exited = new Promise<void>((done) => first.child.once('exit', () => done()));
  expect((await postForm(created.upload, new TextEncoder().encode(csv), 'text/csv')).status).toBe(204);
  await exited;
  expect(first.child.signalCode).toBe('SIGKILL');

  const skipped = await skipVisibilityTimeout(rig.stack, BULK_QUEUE, Date.now());
  const second = await rig.start({}, skipped.aheadMs);
  const after = client(second.baseUrl, tenant);
  // The first chunk's cursor moved; the second chunk's rows committed before the crash are past it.
  const atCrash = (await after.get(`${IMPORTS}/${created.import._id}`)).body.data.import;
  expect(atCrash).toMatchObject({ status: 'running', counts: { rows: IMPORT_CHUNK_ROWS } });
  await skipped.lapse();

  const done = await eventually(
    async () => {
      const job = (await pollData(after, `${IMPORTS}/${created.import._id}`))?.import;
      return job?.status === 'completed' && job;
    },
    240_000,
    1000,
  );
  const failed = Array.from({ length: ROWS }, (_, i) => i).filter((i) => i % 50 === 49);
  expect(done.counts).toEqual({
    rows: ROWS,
    created: ROWS - ROWS / 4 - failed.length,
    updated: ROWS / 4,
    unchanged: 0,
    failed: failed.length,
  });

  expect((await after.get('/api/v1/contacts/customers')).body.data.pagination.total).toBe(ROWS - failed.length);
  const events = await outboxEvents(tenant.workspaceId);
  const perEmail = (type: string) => {
    const counts = new Map<string, number>();
    for (const e of events.filter((x) => x.eventType === type)) {
      const at = (e.data.contact as { email: string }).email;
      counts.set(at, (counts.get(at) ?? 0) + 1);
    }
    return counts;
  };
  const createdEvents = perEmail('customer.contact.created');
  const updatedEvents = perEmail('customer.contact.updated');
  expect(createdEvents.size).toBe(ROWS - failed.length);
  expect([...createdEvents.values()].every((n) => n === 1)).toBe(true);
  expect(updatedEvents.size).toBe(ROWS / 4);
  expect([...updatedEvents.values()].every((n) => n === 1)).toBe(true);
  expect(events.filter((e) => e.eventType === 'customer.import.started')).toHaveLength(1);
  expect(events.filter((e) => e.eventType === 'customer.import.finished')).toHaveLength(1);

  const errors = parse((await after.get(`${IMPORTS}/${created.import._id}/errors`)).body as string, { bom: true, columns: true }) as {
    line: string;
  }[];
  expect(errors.map((e) => Number(e.line))).toEqual(failed.map((i) => i + 2));
});
