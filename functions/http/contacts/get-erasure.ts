import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { erasure } from '../../../shared/views/erasures';
import { readErasure } from '../../../shared/erasure/erasures';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'contacts:read', params: IdParams, response: z.strictObject({ erasure }) },
  async ({ params, tenant }) => ({ erasure: await readErasure(tenant, params.id) }),
);
