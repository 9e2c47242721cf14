import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { definition } from '../../../shared/views/workflows';
import { createWorkflow } from '../../../shared/workflows/definitions';
import { CreateWorkflow } from './bodies';
import { withCronCheck } from '../../../shared/workflows/cron-check';

/** New workflows start inactive (`POST …/{id}/activate`); a manual trigger works on them at once. */
export const handler = withCronCheck(
  route(
    { scope: 'workflows:write', body: CreateWorkflow, status: 201, response: z.strictObject({ workflow: definition }) },
    async ({ body, tenant, now, unit }) => ({
      workflow: await createWorkflow(unit, tenant, body, now),
    }),
  ),
);
