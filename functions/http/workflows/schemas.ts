import * as z from 'zod';
import { EXECUTION_STATUSES } from '../../../shared/domain/workflows/execution';
import { WORKFLOW_JSON_LIMITS } from '../../../shared/domain/workflows/nodes';
import { freeFormMap } from '../../../shared/domain/free-form';
import { ListQuery } from '../../../shared/http/pagination';
import { OBJECT_ID } from '../../../shared/ids';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

export const TriggerBody = /* @__PURE__ */ built(() =>
  z.strictObject({ payload: freeFormMap(z.string(), z.unknown(), WORKFLOW_JSON_LIMITS).optional() }),
);
export const ExecutionsQuery = /* @__PURE__ */ built(() =>
  ListQuery.extend({
    workflowId: z.string().regex(OBJECT_ID).optional(),
    status: z.enum(EXECUTION_STATUSES).optional(),
  }),
);
