import { entity } from './define';

export const subscription = entity({
  name: 'Webhook subscription',
  itemTypes: ['WEBHOOK_SUBSCRIPTION', 'WEBHOOK_URL_LOCK'],
  personal: [],
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
  itemTypes: ['WEBHOOK_DELIVERY', 'WEBHOOK_RESPONSE_BODY'],
  personal: ['responseBody'],
  about:
    "A delivery of one event to one subscription and its attempts' response bodies; while it is pending, retrying or failed, its one index entry names its status (a success leaves the index).",
  prefixes: ['DLV', 'DLVBODY', 'STATUS'],
  keys: {
    pk: '<tenant>#WHSUB#<subscription id>',
    sk: 'DLV#<delivery id> | DLVBODY#<delivery id>#<attempt, 4 digits>',
    gsi2pk: '<tenant>#WHSUB#<subscription id>#STATUS#<pending | retrying | failed>',
    gsi2sk: '<delivery id>',
  },
  patterns: [
    { read: 'delivery by id; the log; its exact total (a key-only COUNT)', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLV#' },
    {
      read: 'pending, retrying or failed deliveries, and their exact total',
      by: 'gsi2pk=<tenant>#WHSUB#<sub>#STATUS#<status>',
      index: 'gsi2',
    },
    { read: 'succeeded deliveries, and their exact total: the log, filtered on status', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLV#' },
    {
      read: 'deliveries by event type (± status): the same partitions in turn, filtered on eventType',
      by: 'gsi2pk=<tenant>#WHSUB#<sub>#STATUS#<status>',
      index: 'gsi2',
    },
    { read: 'response bodies of a delivery', by: 'pk=<tenant>#WHSUB#<sub> sk begins_with DLVBODY#<delivery id>#' },
  ],
});
