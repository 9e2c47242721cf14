import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { erasure } from '../../../shared/views/erasures';
import { requestErasure } from '../../../shared/erasure/erasures';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'contacts:write', params: IdParams, status: 202, response: z.strictObject({ erasure }), errors: ['CONFLICT'] },
  async ({ params, tenant, now, unit }) => ({ erasure: await requestErasure(unit, tenant, params.id, now) }),
);
