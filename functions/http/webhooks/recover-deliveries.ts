import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { recovery } from '../../../shared/views/webhooks';
import { recoverDeliveries } from '../../../shared/webhooks/recover';
import { IdParams } from '../../../shared/http/params';
import { RecoverDeliveries } from './schemas';

/** 202: each failed delivery in the range has its new attempt queued; the results show up in the delivery log. */
export const handler = route(
  { scope: 'webhooks:write', body: RecoverDeliveries, params: IdParams, status: 202, response: z.strictObject({ recovery }) },
  async ({ body, params, tenant, now, unit }) => {
    const range = { since: new Date(body.since), until: body.until ? new Date(body.until) : now };
    return { recovery: await recoverDeliveries(unit, tenant, params.id, range, now) };
  },
);
