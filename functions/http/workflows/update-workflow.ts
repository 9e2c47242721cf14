import { route } from '../../../shared/http/route';
import { updateWorkflow } from '../../../shared/workflows/definitions';
import { IdParams, UpdateWorkflow } from './schemas';

/** A change makes a new `version`; running executions finish on the version they started with. */
export const handler = route({ scope: 'workflows:write', params: IdParams, body: UpdateWorkflow }, async ({ params, body, tenant, now }) => ({
  workflow: await updateWorkflow(tenant, params.id, body, now),
}));
