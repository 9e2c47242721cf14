import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { createTicket } from '../../../shared/realtime/tickets';
import { ticket } from '../../../shared/views/events';

/** Any valid token may open a socket; what it receives is filtered by its read scopes, as the events log is. */
export const handler = route({ scope: null, status: 201, response: z.strictObject({ ticket }) }, async ({ tenant, token, now, unit }) => ({
  ticket: await createTicket(unit, tenant, token, now),
}));
