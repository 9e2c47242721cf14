import { isValidPattern } from '../../../shared/events/types';
import { createWorkflowSchema, updateWorkflowSchema } from '../../../shared/domain/workflows/definition';
import { validCron } from '../../../shared/workflows/cron-check';
import { built } from '../../../shared/domain/built';

/** A workflow's body as created and as patched: apart from `./schemas`, so that only these two routes check crons. */
export const CreateWorkflow = /* @__PURE__ */ built(() => createWorkflowSchema(isValidPattern, validCron));
export const UpdateWorkflow = /* @__PURE__ */ built(() => updateWorkflowSchema(isValidPattern, validCron));
