import { route } from '../../../shared/http/route';
import { notificationSecret } from '../../../shared/data/workflow-secrets';

/** The secret on_error `notify` signs with (made on first use): receivers verify notifications with it as they verify webhooks. */
export const handler = route({ scope: 'workflows:write' }, async ({ tenant }) => ({ notificationSecret: { secret: await notificationSecret(tenant) } }));
