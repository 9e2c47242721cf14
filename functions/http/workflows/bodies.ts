import { isValidPattern } from '../../../shared/events/types';
import { createWorkflowSchema, updateWorkflowSchema } from '../../../shared/domain/workflows/definition';
import { validCron } from '../../../shared/domain/workflows/cron';
import { built } from '../../../shared/domain/built';

/** A workflow's body as created and as patched: apart from `./schemas`, so that only these two routes load croner for the cron check. */
export const CreateWorkflow = /* @__PURE__ */ built(() => createWorkflowSchema(isValidPattern, validCron));
export const UpdateWorkflow = /* @__PURE__ */ built(() => updateWorkflowSchema(isValidPattern, validCron));
