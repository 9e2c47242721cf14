import { Refused } from '../domain/refusal';
import type { Tenant } from '../domain/auth/tenant';
import { leadListSource, leadStatusParts, type LeadFilters } from '../domain/crm/lead-lists';
import { stayView, type StageStay } from '../domain/crm/lead';
import { stageOf } from '../domain/crm/pipeline';
import { readCounter } from './counters';
import { leadKey, tagLinkKey } from './entity-keys';
import { fromItem, requireLead } from './leads';
import { readItems, readList } from './lists';
import { getPipeline } from './pipelines';
import { queryPage, type PageRequest } from './query';
import { taggedCounter } from './tag-links';
import { K } from './registry/registry';

/** A stage filter given with its pipeline must name one of that pipeline's stages (refused otherwise). */
const checkStageOfPipeline = async (tenant: Tenant, f: LeadFilters) => {
  if (!f.pipelineId || !f.stageId) return;
  const stored = await getPipeline(tenant, f.pipelineId);
  if (stored && !stageOf(stored.pipeline, f.stageId)) throw new Refused('stage_outside_pipeline', 'Not a stage of this pipeline');
};

/** One page of the list a filter selects: O(limit) reads with a cursor, and an O(1) exact total. */
export const listLeads = async (tenant: Tenant, filters: LeadFilters, page: PageRequest) => {
  const source = leadListSource(filters);
  await checkStageOfPipeline(tenant, filters);
  const { ids, total, nextCursor } =
    'list' in source
      ? await readList(tenant, 'lead', source.list, page, { newestFirst: true, parts: leadStatusParts(source.list) })
      : await Promise.all([
          queryPage({ pk: tagLinkKey(tenant, source.tagId, 'lead', '').pk, skPrefix: 'lead#', newestFirst: true }, page),
          readCounter(tenant, taggedCounter(source.tagId, 'lead')),
        ]).then(([result, total]) => ({
          ids: result.items.map((i) => (i.sk as string).slice('lead#'.length)),
          total,
          nextCursor: result.nextCursor,
        }));
  return {
    leads: await readItems(
      ids.map((id) => leadKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** A lead's stays, oldest first, with an exact total (the lead counts them). */
export const stageHistory = async (
  tenant: Tenant,
  id: string,
  page: PageRequest,
): Promise<{ history: StageStay[]; total: number; nextCursor?: string }> => {
  const { stays } = await requireLead(tenant, id);
  const result = await queryPage({ pk: leadKey(tenant, id).pk, skPrefix: `${K.STAY}#` }, page);
  const history = result.items.map((s) =>
    stayView({
      pipelineId: s.pipelineId as string,
      stageId: s.stageId as string,
      enteredAt: s.enteredAt as string,
      exitedAt: (s.exitedAt as string | null) ?? null,
    }),
  );
  return { history, total: stays, nextCursor: result.nextCursor };
};
