import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { notificationSecret as secretView } from '../../../shared/views/workflows';
import { notificationSecret } from '../../../shared/workflows/notification-secret';

/** The secret on_error `notify` signs with (made on first use): receivers verify notifications with it as they verify webhooks. */
export const handler = route(
  { scope: 'workflows:write', response: z.strictObject({ notificationSecret: secretView }) },
  async ({ tenant, unit }) => ({ notificationSecret: { secret: await notificationSecret(unit, tenant) } }),
);
