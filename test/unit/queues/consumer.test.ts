import type { SQSRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { log } from '../../../shared/log';
import { type Tenant, testTenant } from '../../../shared/domain/auth/tenant';
import { ACK } from '../../../shared/domain/verdict';
import { consumer, groupedConsumer, messageTenant, queueMessage, type Queue } from '../../../shared/queues';
import { useCapturedLogs } from '../../support/captured-logs';

const SECRET = 'whsec_canary-never-logged';
const TENANT = testTenant('5f1d7c2e9a3b4c6d8e0f1a2b');
const queue: Queue<{ tenant: Tenant; itemId: string }> = {
  env: 'WORKFLOW_QUEUE_URL',
  name: 'test item',
  message: queueMessage(z.object({ ...messageTenant, itemId: z.string() })),
};

const record = (messageId: string, body: string): SQSRecord =>
  ({ messageId, receiptHandle: `rh-${messageId}`, body, attributes: {}, messageAttributes: {} }) as unknown as SQSRecord;
const event = (...records: SQSRecord[]) => ({ Records: records });
const good = (messageId: string, itemId = messageId) => record(messageId, JSON.stringify({ tenant: TENANT, itemId }));

const logs = useCapturedLogs();

describe('a message', () => {
  it('names its tenant as `tenant`; one sent when the field was `workspaceId` is read the same', async () => {
    const seen: { tenant: Tenant; itemId: string }[] = [];
    const handler = consumer(
      queue,
      async (m) => {
        seen.push(m);
        return ACK;
      },
      () => ({}),
    );
    const legacy = record('m2', JSON.stringify({ workspaceId: TENANT, itemId: 'old' }));
    const result = await handler(event(good('m1', 'new'), legacy, record('m3', JSON.stringify({ workspaceId: 'nope', itemId: 'x' }))));
    expect(seen).toEqual([
      { tenant: TENANT, itemId: 'new' },
      { tenant: TENANT, itemId: 'old' },
    ]);
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm3' }]);
  });
});

describe('a message that does not parse', () => {
  it('is reported failed alone (so it ends in the DLQ), and the rest of the batch is handled', async () => {
    const handled: string[] = [];
    const handler = consumer(
      queue,
      async (m) => {
        handled.push(m.itemId);
        return ACK;
      },
      (m) => ({ deliveryId: m.itemId }),
    );
    const result = await handler(
      event(
        good('m1'),
        record('m2', `{"tenant": "${TENANT}", "itemId": "${SECRET}"`),
        record('m3', JSON.stringify({ tenant: TENANT, itemId: 7, token: SECRET })),
        record('m4', JSON.stringify({ itemId: 'x' })),
        good('m5'),
      ),
    );
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }, { itemIdentifier: 'm4' }]);
    expect(handled).toEqual(['m1', 'm5']);
  });

  it('is logged with its message id and where it is wrong, never with what it holds', async () => {
    const handler = consumer(
      queue,
      async () => ACK,
      () => ({}),
    );
    await handler(
      event(record('m2', `{"itemId": "${SECRET}"`), record('m3', JSON.stringify({ tenant: TENANT, itemId: 7, token: SECRET }))),
    );
    expect(logs).toEqual([
      expect.objectContaining({ level: 'ERROR', message: 'test item message is not JSON', messageId: 'm2' }),
      expect.objectContaining({
        level: 'ERROR',
        message: 'test item message does not match its schema',
        messageId: 'm3',
        issues: [{ path: 'itemId', code: 'invalid_type' }],
      }),
    ]);
    expect(JSON.stringify(logs)).not.toContain('canary');
  });
});

describe('a message that parses', () => {
  it('is handled in its own log context: message id and the ids it names', async () => {
    const handler = consumer(
      queue,
      async () => {
        log.info('handled');
        return ACK;
      },
      (m) => ({ deliveryId: m.itemId }),
    );
    expect((await handler(event(good('m1', 'dlv-1'), good('m2', 'dlv-2')))).batchItemFailures).toEqual([]);
    expect(logs.map((l) => [l.messageId, l.deliveryId])).toEqual([
      ['m1', 'dlv-1'],
      ['m2', 'dlv-2'],
    ]);
  });

  it('whose handling throws is reported failed with the rest of its group, and other groups are unaffected', async () => {
    const handler = groupedConsumer(
      queue,
      (m) => m.itemId,
      async (messages) => {
        if (messages[0]!.itemId === 'bad') throw new Error('boom');
        return messages.map(() => ACK);
      },
      () => ({}),
    );
    const result = await handler(event(good('m1', 'bad'), good('m2', 'ok'), good('m3', 'bad')));
    expect(result.batchItemFailures).toEqual([{ itemIdentifier: 'm1' }, { itemIdentifier: 'm3' }]);
    expect(logs).toEqual([expect.objectContaining({ level: 'ERROR', message: 'test item message failed', messageId: 'm1' })]);
  });
});
