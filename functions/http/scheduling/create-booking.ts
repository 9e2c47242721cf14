import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { booking } from '../../../shared/views/scheduling';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { createBooking } from '../../../shared/data/bookings';
import { getWorkspace } from '../../../shared/data/workspaces';
import { CreateBooking } from './schemas';

export const handler = route(
  { scope: 'inbox:write', body: CreateBooking, status: 201, response: z.strictObject({ booking }) },
  async ({ body, tenant, now }) => {
    const timezone = body.timezone ?? (await getWorkspace(tenantParts(tenant).workspaceId))!.timezone;
    return { booking: await createBooking(tenant, { ...body, timezone }, now) };
  },
);
