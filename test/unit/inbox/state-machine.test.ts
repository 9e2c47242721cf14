import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
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

describe('conversation status machine', () => {
  const expectedEvent = (from: Status, to: Status) =>
    to === 'snoozed' ? 'snoozed' : to === 'closed' ? 'closed' : to === 'open' && (from === 'closed' || from === 'snoozed') ? 'reopened' : 'status_changed';

  for (const from of STATUSES) {
    for (const to of STATUSES) {
      const allowed = allowedTransitions(from).includes(to);
      it(`${allowed ? 'allows' : 'refuses with 409'} ${from} → ${to}`, () => {
        const opts = { now, snoozedUntil: to === 'snoozed' ? later : undefined };
        if (!allowed) {
          expect(refusal(() => changeStatus(conversation(from), to, opts))).toMatchObject({ code: 'CONFLICT', details: { status: from, requested: to } });
          return;
        }
        const change = changeStatus(conversation(from), to, opts);
        expect(change.conversation.status).toBe(to);
        expect(change.conversation.snoozedUntil).toBe(to === 'snoozed' ? later : null);
        expect(change.events).toEqual([{ name: expectedEvent(from, to), fields: ['status', 'snoozedUntil'] }]);
      });
    }
  }

  it('only a closed conversation refuses everything but open', () => {
    expect(allowedTransitions('closed')).toEqual(['open']);
  });

  it('snoozing needs a future time, and other statuses refuse one (422)', () => {
    expect(refusal(() => changeStatus(conversation('open'), 'snoozed', { now }))).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refusal(() => changeStatus(conversation('open'), 'snoozed', { now, snoozedUntil: now.toISOString() }))).toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(refusal(() => changeStatus(conversation('open'), 'closed', { now, snoozedUntil: later }))).toMatchObject({ code: 'VALIDATION_ERROR' });
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
