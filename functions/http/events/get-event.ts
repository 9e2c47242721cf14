import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { IdParams } from '../../../shared/http/params';
import { getEvent } from '../../../shared/realtime/events-log';
import { event } from '../../../shared/views/events';

/** An event the token may not see (its category's read scope is missing) answers 404, as one that does not exist. */
export const handler = route({ scope: null, params: IdParams, response: z.strictObject({ event }) }, async ({ params, tenant, token }) => ({
  event: await getEvent(tenant, token.scopes, params.id),
}));
