import type { Conversation } from '../inbox/conversation';
import type { Message } from '../inbox/message';
import type { Lead } from '../crm/lead';

/** The parts of an event envelope analytics reads. */
export interface CountedEvent {
  eventType: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

/** What one event adds to a day: counters, and duration samples (seconds) for the named sketches. */
export interface Tally {
  counts: Record<string, number>;
  samples: Record<string, number>;
}

/** An event's share of the workspace's day and of one agent's day (by assignee id as stored; null: unassigned). */
export interface Contribution {
  workspace: Tally;
  agent?: { assigneeId: string | null; tally: Tally };
  /** Counted only for the conversation's first reply: the first-response sample. */
  firstResponse?: { conversationId: string; seconds: number; assigneeId: string | null };
}

export const SKETCHES = ['firstResponse', 'resolution', 'webhookLatencyMs'] as const;
export type Sketch = (typeof SKETCHES)[number];

const stageCounter = (pipelineId: string, stageId: string) => `stage:${pipelineId}:${stageId}`;
const wonValueCounter = (currency: string) => `wonValue:${currency}`;

const tally = (counts: Record<string, number>, samples: Partial<Record<Sketch, number>> = {}): Tally => ({ counts, samples });
const seconds = (from: string, to: string) => Math.max(0, (Date.parse(to) - Date.parse(from)) / 1000);

/** The analytics an event contributes, or undefined when it counts for nothing. */
export const contributionOf = (e: CountedEvent): Contribution | undefined => {
  const conversation = e.data.conversation as Conversation | undefined;
  const lead = e.data.lead as Lead | undefined;
  switch (e.eventType) {
    case 'inbox.conversation.created':
      return { workspace: tally({ conversationsOpened: 1 }) };
    case 'inbox.conversation.closed': {
      const resolution = seconds(conversation!.createdAt, e.occurredAt);
      return {
        workspace: tally({ conversationsClosed: 1 }, { resolution }),
        agent: { assigneeId: conversation!.assigneeId, tally: tally({ conversationsClosed: 1 }, { resolution }) },
      };
    }
    case 'inbox.conversation.assigned':
      return { workspace: tally({}), agent: { assigneeId: conversation!.assigneeId, tally: tally({ conversationsAssigned: 1 }) } };
    case 'inbox.message.received':
      return { workspace: tally({ messagesIn: 1 }) };
    case 'inbox.message.sent': {
      const message = e.data.message as Message;
      return {
        workspace: tally({ messagesOut: 1, ...(message.author.type === 'ai' ? { aiMessagesOut: 1 } : {}) }),
        agent: { assigneeId: conversation!.assigneeId, tally: tally({ messagesOut: 1 }) },
        firstResponse: {
          conversationId: conversation!._id,
          seconds: seconds(conversation!.createdAt, message.createdAt),
          assigneeId: conversation!.assigneeId,
        },
      };
    }
    case 'crm.lead.created':
      return { workspace: tally({ leadsCreated: 1, [stageCounter(lead!.pipelineId, lead!.stageId)]: 1 }) };
    case 'crm.lead.stage_changed':
      return { workspace: tally({ [stageCounter(lead!.pipelineId, lead!.stageId)]: 1 }) };
    case 'crm.lead.won':
      return { workspace: tally({ leadsWon: 1, ...(lead!.value ? { [wonValueCounter(lead!.value.currency)]: lead!.value.amount } : {}) }) };
    case 'crm.lead.lost':
      return { workspace: tally({ leadsLost: 1 }) };
    default:
      return undefined;
  }
};

/** The event types `contributionOf` counts: the analytics rule's pattern. */
export const COUNTED_EVENTS = [
  'inbox.conversation.created',
  'inbox.conversation.closed',
  'inbox.conversation.assigned',
  'inbox.message.received',
  'inbox.message.sent',
  'crm.lead.created',
  'crm.lead.stage_changed',
  'crm.lead.won',
  'crm.lead.lost',
] as const;

/** One webhook attempt: recorded with the attempt itself by the delivery worker (no domain event reports attempts). */
export const attemptTally = (status: string, latencyMs: number | undefined): Tally => ({
  counts: {
    webhookAttempts: 1,
    ...(status === 'success' ? { webhookDelivered: 1 } : {}),
    ...(status === 'failed' ? { webhookFailed: 1 } : {}),
  },
  samples: latencyMs === undefined ? {} : { webhookLatencyMs: latencyMs },
});
