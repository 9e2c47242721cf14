import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { subscriptionWithSecret } from '../../../shared/views/webhooks';
import { publicSubscription } from '../../../shared/domain/webhooks/subscription';
import { rotateSecret } from '../../../shared/webhooks/rotate';
import { IdParams } from '../../../shared/http/params';
import { RotateSecret } from './schemas';

/** The new secret is returned here, once, as at creation. */
export const handler = route(
  {
    scope: 'webhooks:write',
    body: RotateSecret,
    params: IdParams,
    response: z.strictObject({ subscription: subscriptionWithSecret }),
  },
  async ({ body, params, tenant, now, unit }) => {
    const sub = await rotateSecret(unit, tenant, params.id, body.overlapSeconds, now);
    return { subscription: { ...publicSubscription(sub), secret: sub.secret } };
  },
);
