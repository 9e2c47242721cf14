import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { eventCatalog } from '../../../shared/events/catalog';

const eventTypes = eventCatalog.map((e) => ({
  type: e.type,
  category: e.type.split('.')[0]!,
  description: e.description,
  dataSchema: z.toJSONSchema(e.data),
}));

/** The catalog a subscription's `events` may name, plus the wildcards `*` and `<prefix>.*`. */
export const handler = route({ scope: 'webhooks:read' }, async () => ({
  eventTypes,
  wildcards: ['*', ...new Set(eventCatalog.map((e) => `${e.type.split('.')[0]}.*`))],
}));
