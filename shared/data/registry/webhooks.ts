import { entity } from './define';

export const subscription = entity({
  name: 'Webhook subscription',
  about: 'A webhook endpoint, its URL held unique per workspace and its count bounded.',
  prefixes: ['WHSUB', 'WHSUB_COUNT', 'WHURL', 'WEBHOOK_SUBSCRIPTIONS'],
  keys: {
    pk: '<tenant> | <tenant>#WHURL#<sha256 of url>',
    sk: 'WHSUB#<id> | WHSUB_COUNT | WHURL',
    gsi1pk: 'WEBHOOK_SUBSCRIPTIONS',
    gsi1sk: '<workspace id>#<id>',
  },
  patterns: [
    { read: 'subscription by id', by: 'pk=<tenant> sk=WHSUB#<id>' },
    { read: 'subscriptions of a workspace', by: 'pk=<tenant> sk begins_with WHSUB#' },
    { read: 'every subscription (sweeper)', by: 'gsi1pk=WEBHOOK_SUBSCRIPTIONS', index: 'gsi1' },
    { read: 'subscription count', by: 'pk=<tenant> sk=WHSUB_COUNT' },
  ],
});

export const delivery = entity({
  name: 'Webhook delivery',
  about: 'A delivery of one event to one subscription, its counters and its attempts\' response bodies.',
  prefixes: ['DLV', 'DLVBODY', 'DLVCOUNT', 'STATUS', 'TYPE'],
  keys: {
    pk: '<tenant>#WHSUB#<subscription id>',
    sk: 'DLV#<delivery id> | DLVCOUNT#<shard> | DLVBODY#<delivery id>#<attempt, 4 digits>',
    gsi1pk: '<tenant>#WHSUB#<subscription id>#TYPE#<event type>',
    gsi1sk: '<status>#<delivery id>',
    gsi2pk: '<tenant>#WHSUB#<subscription id>#STATUS#<status>',
    gsi2sk: '<delivery id>',
  },
  patterns: [
    { read: 'delivery by id; the log', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLV#' },
    { read: 'deliveries by status', by: 'gsi2pk=<tenant>#WHSUB#<sub>#STATUS#<status>', index: 'gsi2' },
    { read: 'deliveries by event type (± status)', by: 'gsi1pk=<tenant>#WHSUB#<sub>#TYPE#<event type> gsi1sk begins_with <status>#', index: 'gsi1' },
    { read: 'response bodies of a delivery', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLVBODY#<delivery id>#' },
    { read: 'delivery counters', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLVCOUNT#' },
  ],
});
