import { entity } from './define';

export const analytics = entity({
  name: 'Analytics day',
  itemTypes: ['ANALYTICS_EVENT', 'ANALYTICS_FIRST_REPLY'],
  personal: [],
  about: 'Counters and sketch buckets per day and per agent-day; counted events and first replies guard the counting (TTL).',
  prefixes: ['ANDAY', 'ANAGENT', 'ANEVT', 'ANFR'],
  keys: {
    pk: '<tenant>#ANDAY | <tenant>#ANAGENT | <tenant>#ANEVT#<event id> | <tenant>#ANFR#<conversation id>',
    sk: '<YYYY-MM-DD> | <YYYY-MM-DD>#<assignee> | ANEVT | ANFR',
  },
  patterns: [
    { read: 'workspace days in a range', by: 'pk=<tenant>#ANDAY sk between <from> and <to>' },
    { read: 'agent days in a range', by: 'pk=<tenant>#ANAGENT sk between <from> and <to>' },
  ],
});
