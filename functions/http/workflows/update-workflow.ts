import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { definition } from '../../../shared/views/workflows';
import { updateWorkflow } from '../../../shared/workflows/definitions';
import { IdParams } from './schemas';
import { UpdateWorkflow } from './bodies';
import { withCronCheck } from '../../../shared/workflows/cron-check';

/** A change makes a new `version`; running executions finish on the version they started with. */
export const handler = withCronCheck(
  route(
    { scope: 'workflows:write', params: IdParams, body: UpdateWorkflow, response: z.strictObject({ workflow: definition }) },
    async ({ params, body, tenant, now, unit }) => ({
      workflow: await updateWorkflow(unit, tenant, params.id, body, now),
    }),
  ),
);
