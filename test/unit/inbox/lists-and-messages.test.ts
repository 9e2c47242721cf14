import { describe, expect, it } from 'vitest';
import { newConversation, type Conversation } from '../../../shared/domain/inbox/conversation';
import { assign, edit, unassign } from '../../../shared/domain/inbox/edits';
import { listMoves, listSource, listsOf, statusParts } from '../../../shared/domain/inbox/lists';
import { leadListsOf, leadStatusParts } from '../../../shared/domain/crm/lead-lists';
import { applyMessage, newMessage } from '../../../shared/domain/inbox/message';

const now = new Date('2026-01-01T00:00:00Z');
const base: Conversation = newConversation({ customerId: 'c'.repeat(24), channel: 'email' }, { _id: 'a'.repeat(24), number: 7 }, now);
const agent = 'b'.repeat(24);

describe('conversation lists', () => {
  it('puts a conversation in one list per filter', () => {
    expect(listsOf(base)).toEqual([
      'all',
      'status:open',
      'assignee:none',
      'assignee:none:status:open',
      'channel:email',
      `customer:${base.customerId}`,
    ]);
  });

  it('counts only the lists whose total is not the sum of one list per status', () => {
    const withParts = listsOf({ ...base, assigneeId: agent }).filter((l) => statusParts(l));
    expect(withParts).toEqual(['all', `assignee:${agent}`]);
    expect(statusParts(`assignee:${agent}`)).toEqual(['open', 'pending', 'snoozed', 'closed'].map((s) => `assignee:${agent}:status:${s}`));
    for (const l of listsOf(base).filter((l) => !statusParts(l))) expect(statusParts(l)).toBeUndefined();
    const lead = {
      pipelineId: 'p'.repeat(24),
      stageId: 's'.repeat(24),
      status: 'open' as const,
      assigneeId: null,
      customerId: base.customerId,
    };
    expect(leadListsOf(lead).filter((l) => leadStatusParts(l))).toEqual(['all', 'assignee:none']);
    expect(leadStatusParts('assignee:none')).toEqual(['open', 'won', 'lost'].map((s) => `assignee:none:status:${s}`));
    expect(leadStatusParts(`pipeline:${lead.pipelineId}`)).toBeUndefined();
  });

  it('moves only the lists that change, and all of them on create and delete', () => {
    const assigned = { ...base, assigneeId: agent };
    expect(listMoves(base, assigned)).toEqual({
      leave: ['assignee:none', 'assignee:none:status:open'],
      join: [`assignee:${agent}`, `assignee:${agent}:status:open`],
    });
    expect(listMoves(undefined, base).join).toEqual(listsOf(base));
    expect(listMoves(base, undefined).leave).toEqual(listsOf(base));
    expect(listMoves(base, { ...base, priority: 'high' })).toEqual({ leave: [], join: [] });
  });

  it('reads one list per filter, combines only status with assignee, and refuses other combinations (422)', () => {
    expect(listSource({})).toEqual({ list: 'all' });
    expect(listSource({ status: 'closed' })).toEqual({ list: 'status:closed' });
    expect(listSource({ assigneeId: agent, status: 'open' })).toEqual({ list: `assignee:${agent}:status:open` });
    expect(listSource({ tagId: 't' })).toEqual({ tagId: 't' });
    expect(() => listSource({ status: 'open', channel: 'email' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
    expect(() => listSource({ tagId: 't', customerId: 'c' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});

describe('messages and their effect on the conversation', () => {
  const author = { type: 'customer' as const, id: base.customerId };
  const at = new Date('2026-01-02T00:00:00Z');
  const message = (type: 'incoming' | 'outgoing' | 'note') =>
    newMessage({ type, content: 'x', author }, { _id: 'd'.repeat(24), conversationId: base._id }, at);

  it('an incoming message counts, raises unread and reopens a closed or snoozed conversation', () => {
    for (const status of ['closed', 'snoozed'] as const) {
      const change = applyMessage({ ...base, status, snoozedUntil: status === 'snoozed' ? at.toISOString() : null }, message('incoming'));
      expect(change.conversation).toMatchObject({
        status: 'open',
        snoozedUntil: null,
        unreadCount: 1,
        messageCount: 1,
        lastMessageAt: at.toISOString(),
      });
      expect(change.events.map((e) => e.name)).toEqual(['reopened']);
    }
    expect(applyMessage({ ...base, status: 'pending' }, message('incoming')).conversation.status).toBe('pending');
  });

  it('an outgoing reply marks the conversation read; a note changes only the count', () => {
    const unread = { ...base, unreadCount: 3 };
    expect(applyMessage(unread, message('outgoing')).conversation).toMatchObject({
      unreadCount: 0,
      messageCount: 1,
      lastMessageAt: at.toISOString(),
    });
    expect(applyMessage(unread, message('note')).conversation).toMatchObject({ unreadCount: 3, messageCount: 1, lastMessageAt: null });
    expect(message('note')).toMatchObject({ private: true, deliveryStatus: null });
    expect(message('outgoing').deliveryStatus).toBe('pending');
  });
});

describe('assignment and edits', () => {
  it('refuses no-op assignment changes with 409', () => {
    const assigned = assign(base, agent, now).conversation;
    expect(() => assign(assigned, agent, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(() => unassign(base, now)).toThrow(expect.objectContaining({ code: 'CONFLICT' }));
    expect(unassign(assigned, now).events).toEqual([{ name: 'unassigned', fields: ['assigneeId'] }]);
  });

  it('splits a PATCH into updated and priority_changed events, and a no-op PATCH into none', () => {
    expect(edit(base, { subject: 'Hi', priority: 'high' }, now).events).toEqual([
      { name: 'updated', fields: ['subject'] },
      { name: 'priority_changed', fields: ['priority'] },
    ]);
    expect(edit(base, { priority: 'none' }, now).events).toEqual([]);
  });
});
