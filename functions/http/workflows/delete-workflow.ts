import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { definition } from '../../../shared/views/workflows';
import { removeWorkflow } from '../../../shared/workflows/definitions';
import { IdParams } from './schemas';

export const handler = route(
  { scope: 'workflows:write', params: IdParams, response: deletion('workflow', definition) },
  async ({ params, tenant, now, unit }) => ({ workflow: await removeWorkflow(unit, tenant, params.id, now), deleted: true as const }),
);
