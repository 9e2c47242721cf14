import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { execution } from '../../../shared/views/workflows';
import { triggerManually } from '../../../shared/workflows/triggers';
import { IdParams, TriggerBody } from './schemas';

/** 202: the run is queued; its steps show up in `GET …/executions/{id}`. */
export const handler = route(
  { scope: 'workflows:write', params: IdParams, body: TriggerBody, status: 202, response: z.strictObject({ execution }) },
  async ({ params, body, tenant, now, unit }) => ({
    execution: await triggerManually(unit, tenant, params.id, body.payload, now),
  }),
);
