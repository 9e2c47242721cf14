import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { eventCatalog, isEventType, pingEvent } from '../../../shared/events/catalog';

const eventTypes = [...eventCatalog, pingEvent].map((e) => ({
  type: e.type,
  category: e.type.split('.')[0]!,
  status: e.status,
  // What a subscription's `events` may name: `webhook.ping` is sent by the test route alone, as GitHub's ping.
  subscribable: isEventType(e.type),
  description: e.description,
  dataSchema: z.toJSONSchema(e.data),
}));

/**
 * The catalog a subscription's `events` may name (`subscribable`), plus the wildcards `*` and `<prefix>.*`. A
 * `planned` type may be subscribed to but never fires until its area ships.
 */
export const handler = route({ scope: 'webhooks:read' }, async () => ({
  eventTypes,
  wildcards: ['*', ...new Set(eventCatalog.map((e) => `${e.type.split('.')[0]}.*`))],
}));
