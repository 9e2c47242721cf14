import type { Tenant } from '../domain/auth/tenant';
import { leadsOfCustomer, leadStatusParts, type LeadListSource } from '../domain/crm/lead-lists';
import { stayView, type StageStay } from '../domain/crm/lead';
import { leadKey } from './entity-keys';
import { fromItem } from './leads';
import { listPk, readItems, readList } from './lists';
import { queryPage, type PageRequest } from './query';
import { taggedPage } from './tag-links';
import { K } from './registry/registry';

/** One page of a lead list or of the leads carrying a tag: O(limit) reads with a cursor, and an O(1) exact total. */
export const leadsPage = async (tenant: Tenant, source: LeadListSource, page: PageRequest) => {
  const { ids, total, nextCursor } =
    'list' in source
      ? await readList(tenant, 'lead', source.list, page, { newestFirst: true, parts: leadStatusParts(source.list) })
      : await taggedPage(tenant, source.tagId, 'lead', page);
  return {
    leads: await readItems(
      ids.map((id) => leadKey(tenant, id)),
      fromItem,
    ),
    total,
    nextCursor,
  };
};

/** One page of a lead's stays, oldest first. */
export const staysPage = async (tenant: Tenant, id: string, page: PageRequest): Promise<{ history: StageStay[]; nextCursor?: string }> => {
  const result = await queryPage({ pk: leadKey(tenant, id).pk, skPrefix: `${K.STAY}#` }, page);
  const history = result.items.map((s) =>
    stayView({
      pipelineId: s.pipelineId as string,
      stageId: s.stageId as string,
      enteredAt: s.enteredAt as string,
      exitedAt: (s.exitedAt as string | null) ?? null,
    }),
  );
  return { history, nextCursor: result.nextCursor };
};

/** The ids of (at most `limit` of) the customer's leads, from the customer's lead list. */
export const leadIdsOfCustomer = async (tenant: Tenant, customerId: string, limit: number): Promise<string[]> => {
  const { items } = await queryPage({ pk: listPk(tenant, 'lead', leadsOfCustomer(customerId)) }, { limit });
  return items.map((i) => i.entityId as string);
};
