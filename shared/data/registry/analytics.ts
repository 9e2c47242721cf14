import * as z from 'zod';
import { declare } from './define';
import { built } from '../../domain/built';

/** Counters are plain number attributes and a sketch bucket is the attribute `<sketch>:<bucket>`: read by name, not by a schema. */
const aggregate = /* @__PURE__ */ built(() => z.object({}));

export const analyticsDay = /* @__PURE__ */ declare({
  name: 'Analytics day',
  itemTypes: [],
  personal: [],
  about: "The workspace's counters and sketch buckets of one day: a report reads one Query over the date range, O(days) items.",
  prefixes: ['ANDAY'],
  keys: { pk: 'WS#<tenant>#ANDAY', sk: '<date>' },
  patterns: [{ read: 'workspace days in a range', by: 'pk=<tenant>#ANDAY sk between <from> and <to>' }],
  schema: () => aggregate,
});

export const analyticsAgentDay = /* @__PURE__ */ declare({
  name: 'Analytics agent day',
  itemTypes: [],
  personal: [],
  about: "One assignee's counters and sketch buckets of one day (`-`: unassigned).",
  prefixes: ['ANAGENT'],
  keys: { pk: 'WS#<tenant>#ANAGENT', sk: '<date>#<assignee>' },
  patterns: [{ read: 'agent days in a range', by: 'pk=<tenant>#ANAGENT sk between <from> and <to>#~' }],
  schema: () => aggregate,
});

export const countedEvent = /* @__PURE__ */ declare({
  name: 'Analytics counted event',
  itemTypes: ['ANALYTICS_EVENT'],
  personal: [],
  about: 'An event already counted, created in the counting transaction so a redelivery counts nothing (TTL 8 days).',
  prefixes: ['ANEVT'],
  keys: { pk: 'WS#<tenant>#ANEVT#<eventId>', sk: 'ANEVT' },
  patterns: [],
  schema: () => z.object({}),
});

export const firstReply = /* @__PURE__ */ declare({
  name: 'Analytics first reply',
  itemTypes: ['ANALYTICS_FIRST_REPLY'],
  personal: [],
  about: "A conversation's first reply, created in the transaction that counts it, so no later reply counts as first.",
  prefixes: ['ANFR'],
  keys: { pk: 'WS#<tenant>#ANFR#<conversationId>', sk: 'ANFR' },
  patterns: [],
  schema: () => z.object({}),
});
