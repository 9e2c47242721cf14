import { ConflictError, ValidationError } from '../errors';
import type { Change, Conversation, ConversationEvent, Status } from './conversation';

/**
 * Conversation statuses and the transitions between them. Re-snoozing a snoozed conversation moves its
 * wake-up time; every other same-status request is refused, as is anything out of `closed` but `open`.
 */
const TRANSITIONS: Record<Status, readonly Status[]> = {
  open: ['pending', 'snoozed', 'closed'],
  pending: ['open', 'snoozed', 'closed'],
  snoozed: ['open', 'pending', 'closed', 'snoozed'],
  closed: ['open'],
};

export const allowedTransitions = (from: Status): readonly Status[] => TRANSITIONS[from];

/** The one event a transition emits: the dedicated one when the catalog has it, else `status_changed`. */
const eventFor = (from: Status, to: Status): ConversationEvent => {
  if (to === 'snoozed') return 'snoozed';
  if (to === 'closed') return 'closed';
  if (to === 'open' && (from === 'closed' || from === 'snoozed')) return 'reopened';
  return 'status_changed';
};

export const changeStatus = (conversation: Conversation, to: Status, opts: { snoozedUntil?: string; now: Date }): Change => {
  const from = conversation.status;
  if (!TRANSITIONS[from].includes(to)) {
    throw new ConflictError(`Cannot change a ${from} conversation to ${to}`, { status: from, requested: to, allowed: TRANSITIONS[from] });
  }
  if (to === 'snoozed') {
    if (!opts.snoozedUntil) throw new ValidationError([{ path: 'snoozedUntil', message: 'Required when status is snoozed' }]);
    if (Date.parse(opts.snoozedUntil) <= opts.now.getTime()) {
      throw new ValidationError([{ path: 'snoozedUntil', message: 'Must be in the future' }]);
    }
  } else if (opts.snoozedUntil) {
    throw new ValidationError([{ path: 'snoozedUntil', message: 'Only allowed when status is snoozed' }]);
  }
  return {
    conversation: {
      ...conversation,
      status: to,
      snoozedUntil: to === 'snoozed' ? new Date(opts.snoozedUntil!).toISOString() : null,
      updatedAt: opts.now.toISOString(),
    },
    events: [{ name: eventFor(from, to), fields: ['status', 'snoozedUntil'] }],
  };
};

const isDue = (conversation: Conversation, now: Date): boolean =>
  conversation.status === 'snoozed' && conversation.snoozedUntil !== null && Date.parse(conversation.snoozedUntil) <= now.getTime();

/** The timer's transition: a due snoozed conversation opens again. */
export const wake = (conversation: Conversation, now: Date): Change | undefined =>
  isDue(conversation, now) ? changeStatus(conversation, 'open', { now }) : undefined;
