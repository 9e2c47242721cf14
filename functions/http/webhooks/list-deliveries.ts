import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { listOf } from '../../../shared/views/common';
import { deliverySummary } from '../../../shared/views/webhooks';
import { ListQuery, paginationOf } from '../../../shared/http/pagination';
import { eventTypes } from '../../../shared/events/types';
import { DELIVERY_STATUSES } from '../../../shared/domain/webhooks/delivery';
import { loggedDeliveries } from '../../../shared/webhooks/delivery-log';
import { IdParams } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';

const Query = /* @__PURE__ */ built(() =>
  ListQuery.extend({
    status: z.enum(DELIVERY_STATUSES).optional(),
    eventType: z
      .string()
      .refine((t) => eventTypes.has(t) || t === 'webhook.ping', 'Unknown event type')
      .optional(),
  }),
);

export const handler = route(
  { scope: 'webhooks:read', params: IdParams, query: Query, response: listOf('deliveries', deliverySummary) },
  async ({ params, query, tenant }) => {
    const { deliveries, total, nextCursor } = await loggedDeliveries(tenant, params.id, query, query);
    return { deliveries, pagination: paginationOf(total, query, nextCursor) };
  },
);
