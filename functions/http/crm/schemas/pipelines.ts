import * as z from 'zod';
import { MAX_STAGES, StageEdit, StageInput } from '../../../../shared/domain/crm/pipeline';
import { ObjectId } from '../../../../shared/http/params';
import { Name } from './fields';
import { built } from '../../../../shared/domain/built';

/** Path ids that are not object ids are unknown resources (404), like ids of another workspace. */
export const StageParams = /* @__PURE__ */ built(() => z.object({ id: ObjectId, stageId: ObjectId }));

export const CreatePipeline = /* @__PURE__ */ built(() =>
  z.strictObject({ name: Name, stages: z.array(StageInput).max(MAX_STAGES).optional() }),
);
export const UpdatePipeline = /* @__PURE__ */ built(() => z.strictObject({ name: Name.optional() }));
export const CreateStage = /* @__PURE__ */ built(() => StageInput.extend({ position: z.number().int().min(0).max(MAX_STAGES).optional() }));
export const UpdateStage = StageEdit;
export const ReorderStages = /* @__PURE__ */ built(() => z.strictObject({ stageIds: z.array(z.string().max(64)).min(1).max(MAX_STAGES) }));
