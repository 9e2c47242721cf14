import type { Tenant } from '../domain/auth/tenant';
import { renamePipeline, requirePipeline } from '../data/pipelines';

export {
  createPipeline,
  createStage,
  deletePipeline,
  deleteStage,
  listPipelines,
  pipelineSummary,
  reorderPipelineStages,
  requirePipeline,
  updateStage,
} from '../data/pipelines';

/** A patch without a name changes nothing: it answers the pipeline as it is. */
export const updatePipeline = async (tenant: Tenant, id: string, patch: { name?: string }, now: Date) =>
  patch.name === undefined ? (await requirePipeline(tenant, id)).pipeline : renamePipeline(tenant, id, patch.name, now);
