import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { eventType } from '../../../shared/views/webhooks';
import { eventCatalog, pingEvent } from '../../../shared/events/catalog';

const eventTypes = [...eventCatalog, pingEvent].map((e) => ({
  type: e.type,
  category: e.type.split('.')[0]!,
  status: e.status,
  description: e.description,
  dataSchema: z.toJSONSchema(e.data),
}));

/**
 * The catalog a subscription's `events` may name, plus the wildcards `*` and `<prefix>.*`. A `planned` type
 * may be subscribed to but never fires until its area ships.
 */
export const handler = route({ scope: 'webhooks:read', response: z.strictObject({ eventTypes: z.array(eventType), wildcards: z.array(z.string()) }) }, async () => ({
  eventTypes,
  wildcards: ['*', ...new Set(eventCatalog.map((e) => `${e.type.split('.')[0]}.*`))],
}));
