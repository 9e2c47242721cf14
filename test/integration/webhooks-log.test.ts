import { expect, it } from 'vitest';
import { objectId } from '../../shared/ids';
import { Refused } from '../../shared/domain/refusal';
import { createDelivery, listDeliveries, saveDelivery } from '../../shared/data/webhook-deliveries';
import { createSubscription } from '../../shared/webhooks/subscriptions';
import { newDelivery, type Delivery, type DeliveryStatus } from '../../shared/domain/webhooks/delivery';
import { createTenant } from '../support/tenants';
import { useWebhookStack } from '../support/webhooks';
import { direct } from '../../shared/data/unit';

const ctx = useWebhookStack();

/** Every page of a filtered list, by cursor and by page number: both must give the same deliveries in the same order. */
const walk = async (list: (page: { limit: number; page?: number; cursor?: string }) => ReturnType<typeof listDeliveries>) => {
  const byCursor: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await list({ limit: 2, ...(cursor ? { cursor } : {}) });
    byCursor.push(...page.deliveries.map((d) => d.deliveryId));
    cursor = page.nextCursor;
  } while (cursor);
  const byNumber: string[] = [];
  for (let n = 1; ; n++) {
    const page = await list({ limit: 2, page: n });
    if (page.deliveries.length === 0) break;
    byNumber.push(...page.deliveries.map((d) => d.deliveryId));
  }
  return { byCursor, byNumber, total: (await list({ limit: 2 })).total };
};

it('the delivery log filtered by event type lists success, retrying, pending, failed in turn, each newest first, with exact totals by count', {
  timeout: 120_000,
}, async () => {
  const { tenant } = await createTenant();
  const sub = await createSubscription(direct, tenant, { url: `${ctx.receiver.url}?log`, events: ['*'] }, new Date());
  const plan: [string, DeliveryStatus][] = [
    ['crm.lead.created', 'success'],
    ['crm.lead.updated', 'success'],
    ['crm.lead.created', 'failed'],
    ['crm.lead.created', 'pending'],
    ['crm.lead.created', 'success'],
    ['crm.lead.created', 'retrying'],
    ['crm.lead.updated', 'failed'],
    ['crm.lead.created', 'failed'],
  ];
  const start = Date.now() - 60_000;
  const made: Delivery[] = [];
  for (const [i, [eventType, status]] of plan.entries()) {
    const at = new Date(start + i * 1000);
    const d = newDelivery({ eventId: objectId(at.getTime()), eventType }, sub, at);
    expect(await createDelivery(direct, d, { carrier: 'test', until: 0 })).toBe(true);
    const after: Delivery = {
      ...d,
      status,
      attemptNumber: status === 'pending' ? 0 : 1,
      nextRetryAt: status === 'failed' || status === 'success' ? undefined : d.nextRetryAt,
    };
    if (status !== 'pending') expect(await saveDelivery(direct, d, after)).toBe(true);
    made.push(after);
  }
  const newestFirst = [...made].reverse();
  const expected = (eventType: string, statuses: DeliveryStatus[]) =>
    statuses.flatMap((s) => newestFirst.filter((d) => d.eventType === eventType && d.status === s)).map((d) => d.deliveryId);

  const byType = await walk((page) => listDeliveries(tenant, sub._id, { eventType: 'crm.lead.created' }, page));
  const order = expected('crm.lead.created', ['success', 'retrying', 'pending', 'failed']);
  expect(order).toHaveLength(6);
  expect(byType).toEqual({ byCursor: order, byNumber: order, total: 6 });

  const failedOfType = await walk((page) => listDeliveries(tenant, sub._id, { eventType: 'crm.lead.created', status: 'failed' }, page));
  expect(failedOfType).toEqual({
    byCursor: expected('crm.lead.created', ['failed']),
    byNumber: expected('crm.lead.created', ['failed']),
    total: 2,
  });

  const failed = await walk((page) => listDeliveries(tenant, sub._id, { status: 'failed' }, page));
  expect(failed.total).toBe(3);
  expect(failed.byCursor).toEqual(newestFirst.filter((d) => d.status === 'failed').map((d) => d.deliveryId));

  // Succeeded deliveries leave the status index: their list is the log, filtered.
  const succeeded = newestFirst.filter((d) => d.status === 'success').map((d) => d.deliveryId);
  expect(await walk((page) => listDeliveries(tenant, sub._id, { status: 'success' }, page))).toEqual({
    byCursor: succeeded,
    byNumber: succeeded,
    total: 3,
  });

  const all = await walk((page) => listDeliveries(tenant, sub._id, {}, page));
  expect(all).toEqual({ byCursor: newestFirst.map((d) => d.deliveryId), byNumber: newestFirst.map((d) => d.deliveryId), total: 8 });

  // A cursor of one filter is no cursor of another.
  const typed = await listDeliveries(tenant, sub._id, { eventType: 'crm.lead.created' }, { limit: 2 });
  await expect(listDeliveries(tenant, sub._id, { status: 'failed' }, { limit: 2, cursor: typed.nextCursor! })).rejects.toThrow(
    new Refused('invalid_cursor', 'Invalid or expired cursor'),
  );
});
