import type { Tenant } from '../domain/auth/tenant';
import type { ErasureCounts, ErasureStep } from '../domain/erasure/erasure';
import { getCustomer, customerErasure } from '../data/customers';
import { conversationIdsIn } from '../data/conversations';
import { erasureProgress } from '../data/erasures';
import { eventsNaming } from '../data/events-log';
import { deleteRecordsNaming } from '../data/idempotency';
import { deleteStoredEvent } from '../data/outbox';
import { lostRace, retryOnConflict } from '../data/retry';
import type { Write } from '../data/transact';
import { direct } from '../data/unit';
import { deleteExecution, executionsNaming } from '../data/workflow-executions';
import { deleteRecipientEverywhere } from '../data/broadcast-recipients';
import { deleteDeliveriesOf } from '../data/webhook-deliveries';
import { tenantSubscriptions } from '../data/webhook-subscriptions';
import { listActivities, forgetActivityCustomer } from '../crm/activities';
import { listLeads, unlinkLeadCustomer } from '../crm/leads';
import { listTasks, unlinkTaskCustomer } from '../crm/tasks';
import { deleteConversationWhole } from '../inbox/delete-conversation';
import { eraseFromBulkCsvs } from './bulk-csvs';
import { listBookings, scrubBooking } from '../scheduling/bookings';

/** What a step knows: whose data, which job (to count into), the time, and the ids found so far worth looking for. */
export interface StepContext {
  tenant: Tenant;
  erasureId: string;
  customerId: string;
  now: Date;
  /** The customer's id and the ids of its conversations and files deleted so far. */
  needles: () => Promise<readonly string[]>;
}

/** The job's progress write: counts what one transaction removes, and records the ids it makes worth looking for. */
const tally =
  (ctx: StepContext) =>
  (counted: Partial<ErasureCounts>, ids: readonly string[] = []): Write =>
    erasureProgress(ctx.tenant, ctx.erasureId, counted, ids);

const PAGE = { limit: 100 };

/**
 * Takes the first page of what still names the customer until none is left: each handled item leaves the
 * list, so a page of items all handled already means the list no longer follows them, and stops the step.
 */
const drain = async <T extends { _id: string }>(page: () => Promise<T[]>, handle: (item: T) => Promise<void>): Promise<void> => {
  const handled = new Set<string>();
  for (let items = await page(); items.length; items = await page()) {
    if (items.every((item) => handled.has(item._id))) throw new Error(`a list still names ${items.length} item(s) already unlinked`);
    for (const item of items) {
      await handle(item);
      handled.add(item._id);
    }
  }
};

/** The customer's id, email and phone, read while it is still there (the steps before the customer's own). */
const whoIs = async (ctx: StepContext) => {
  const customer = (await getCustomer(ctx.tenant, ctx.customerId))?.customer;
  return { id: ctx.customerId, email: customer?.email ?? null, phone: customer?.phone ?? null };
};

const conversations = async (ctx: StepContext) => {
  const count = tally(ctx);
  for (const id of await conversationIdsIn(ctx.tenant, `customer:${ctx.customerId}`)) {
    await deleteConversationWhole(direct, ctx.tenant, id, ctx.now, count);
  }
};

/**
 * Each step removes what is left of one kind of copy and is safe to run again from any point: what it already
 * removed is found gone (or no longer linked) and not counted twice.
 */
export const steps: Record<ErasureStep, (ctx: StepContext) => Promise<void>> = {
  leads: (ctx) =>
    drain(
      async () => (await listLeads(ctx.tenant, { customerId: ctx.customerId }, PAGE)).leads,
      async (lead) => {
        await unlinkLeadCustomer(direct, ctx.tenant, lead._id, ctx.customerId, ctx.now, [tally(ctx)({ leads: 1 })]);
      },
    ),
  // Tasks keep no list per customer: the tenant's tasks are read once, by cursor.
  tasks: async (ctx) => {
    let cursor: string | undefined;
    do {
      const page = await listTasks(ctx.tenant, {}, { ...PAGE, cursor }, ctx.now);
      for (const task of page.tasks.filter((t) => t.customerId === ctx.customerId)) {
        await unlinkTaskCustomer(direct, ctx.tenant, task._id, ctx.customerId, ctx.now, [tally(ctx)({ tasks: 1 })]);
      }
      cursor = page.nextCursor;
    } while (cursor);
  },
  activities: (ctx) =>
    drain(
      async () => (await listActivities(ctx.tenant, { customerId: ctx.customerId }, PAGE)).activities,
      (activity) => forgetActivityCustomer(direct, ctx.tenant, activity, [tally(ctx)({ activities: 1 })]),
    ),
  // A scrubbed booking stays in the customer's list (the team's slot), so its list is read by cursor.
  bookings: async (ctx) => {
    let cursor: string | undefined;
    do {
      const page = await listBookings(ctx.tenant, { customerId: ctx.customerId }, { ...PAGE, cursor });
      for (const booking of page.bookings) await scrubBooking(direct, ctx.tenant, booking._id, ctx.now, [tally(ctx)({ bookings: 1 })]);
      cursor = page.nextCursor;
    } while (cursor);
  },
  broadcastRecipients: async (ctx) => {
    await deleteRecipientEverywhere(ctx.tenant, ctx.customerId, () => tally(ctx)({ broadcastRecipients: 1 }));
  },
  conversations,
  bulkCsvs: async (ctx) => eraseFromBulkCsvs(direct, ctx.tenant, ctx.erasureId, await whoIs(ctx), ctx.now),
  // An execution whose starting event names the customer is deleted whole, finished or not (data-rights.md).
  workflowExecutions: async (ctx) => {
    const { email, phone } = await whoIs(ctx);
    const needles = [...(await ctx.needles()), ...[email, phone].filter((n) => n !== null)];
    for (const execution of await executionsNaming(ctx.tenant, needles)) {
      await deleteExecution(direct, execution, [tally(ctx)({ workflowExecutions: 1 })]);
    }
  },
  // A conversation that arrived since the step before is deleted first, and the customer only once it counts none
  // (a count the conversations' listing does not show yet is an index entry still to come), unchanged since read.
  customer: (ctx) =>
    retryOnConflict(async () => {
      await conversations(ctx);
      const stored = await getCustomer(ctx.tenant, ctx.customerId);
      if (!stored) return;
      if (stored.conversationCount > 0) throw lostRace();
      await direct.commit([...customerErasure(ctx.tenant, stored, ctx.now), tally(ctx)({ customer: 1 })], lostRace);
    }),
  deliveries: async (ctx) => {
    const events = new Set(await eventsNaming(ctx.tenant, await ctx.needles()));
    if (!events.size) return;
    for (const sub of await tenantSubscriptions(ctx.tenant)) {
      await deleteDeliveriesOf(ctx.tenant, sub._id, events, () => tally(ctx)({ deliveries: 1 }));
    }
  },
  events: async (ctx) => {
    for (const eventId of await eventsNaming(ctx.tenant, await ctx.needles())) {
      await deleteStoredEvent(ctx.tenant, eventId, [tally(ctx)({ events: 1 })]);
    }
  },
  idempotencyRecords: async (ctx) => {
    await deleteRecordsNaming(ctx.tenant, await ctx.needles(), () => tally(ctx)({ idempotencyRecords: 1 }));
  },
};
