import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../shared/domain/errors';
import { newConversation, STATUSES, type Conversation, type Status } from '../../../shared/domain/inbox/conversation';
import { allowedTransitions, changeStatus, wake } from '../../../shared/domain/inbox/state-machine';

const now = new Date('2026-01-01T00:00:00Z');
const later = '2026-01-01T01:00:00.000Z';
const conversation = (status: Status): Conversation => ({
  ...newConversation({ customerId: 'c'.repeat(24), channel: 'api' }, { _id: 'a'.repeat(24), number: 1 }, now),
  status,
  snoozedUntil: status === 'snoozed' ? later : null,
});

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('expected a refusal');
};

/**
 * The README's status table, written out by hand: the oracle the code is checked against. Each allowed
 * transition names the one event it emits; `null` means 409 CONFLICT.
 */
const EXPECTED: Record<Status, Record<Status, string | null>> = {
  open: { open: null, pending: 'status_changed', snoozed: 'snoozed', closed: 'closed' },
  pending: { open: 'status_changed', pending: null, snoozed: 'snoozed', closed: 'closed' },
  snoozed: { open: 'reopened', pending: 'status_changed', snoozed: 'snoozed', closed: 'closed' },
  closed: { open: 'reopened', pending: null, snoozed: null, closed: null },
};

describe('conversation status machine', () => {
  it('knows exactly the statuses of the table', () => {
    expect([...STATUSES].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const from of STATUSES) {
    for (const to of STATUSES) {
      const event = EXPECTED[from][to];
      const allowed = event !== null;
      it(`${allowed ? `allows, emitting ${event},` : 'refuses with 409'} ${from} → ${to}`, () => {
        const opts = { now, snoozedUntil: to === 'snoozed' ? later : undefined };
        if (!allowed) {
          expect(refusal(() => changeStatus(conversation(from), to, opts))).toMatchObject({
            code: 'CONFLICT',
            details: { status: from, requested: to },
          });
          expect(allowedTransitions(from)).not.toContain(to);
          return;
        }
        const change = changeStatus(conversation(from), to, opts);
        expect(change.conversation.status).toBe(to);
        expect(change.conversation.snoozedUntil).toBe(to === 'snoozed' ? later : null);
        expect(change.events).toEqual([{ name: event, fields: ['status', 'snoozedUntil'] }]);
      });
    }
  }

  it('lists, in a 409, the statuses the table allows from the current one', () => {
    for (const from of STATUSES) {
      const allowed = STATUSES.filter((to) => EXPECTED[from][to] !== null);
      expect([...allowedTransitions(from)].sort()).toEqual([...allowed].sort());
    }
  });

  it('snoozing needs a future time, and other statuses refuse one (422)', () => {
    expect(refusal(() => changeStatus(conversation('open'), 'snoozed', { now }))).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refusal(() => changeStatus(conversation('open'), 'snoozed', { now, snoozedUntil: now.toISOString() }))).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    expect(refusal(() => changeStatus(conversation('open'), 'closed', { now, snoozedUntil: later }))).toMatchObject({
      code: 'VALIDATION_ERROR',
    });
  });

  it('the timer wakes a snoozed conversation only once it is due', () => {
    const snoozed = conversation('snoozed');
    expect(wake(snoozed, now)).toBeUndefined();
    expect(wake(conversation('open'), new Date(later))).toBeUndefined();
    const woken = wake(snoozed, new Date(later))!;
    expect(woken.conversation).toMatchObject({ status: 'open', snoozedUntil: null });
    expect(woken.events[0]!.name).toBe('reopened');
  });
});
