import { outboxItem } from '../../../shared/data/outbox';
import { queryPage } from '../../../shared/data/query';
import { tag } from '../../../shared/data/registry/tags';
import { getTag, tagCreation } from '../../../shared/data/tags';
import { entityTagWrites, tagCountWrites } from '../../../shared/data/tags-tagging';
import { direct } from '../../../shared/data/unit';
import type { TagStore } from './store';

/** The house registry's tags storage (shared/data), as the routes use it. */
export const house: TagStore = {
  create: async (tenant, t) => {
    await direct.commit(tagCreation(tenant, t));
  },
  get: getTag,
  page: async (tenant, limit) => {
    const { items } = await queryPage({ index: 'gsi1', pk: tag.build('gsi1pk', { tenant }) }, { limit });
    return items.map((item) => {
      const { version: _, deletingAt: __, sweepUntil: ___, ...fields } = tag.parse(item);
      return fields;
    });
  },
  tagCustomer: async (tenant, customerId, tagId, event) => {
    const change = { before: [], after: [tagId], delta: [tagId] };
    await direct.commit([
      ...entityTagWrites(tenant, 'customer', customerId, change, 'tag', new Date(event.occurredAt)),
      ...tagCountWrites(tenant, 'customer', 'tag', new Map([[tagId, 1]]), () => new Error('tag gone')),
      outboxItem(event),
    ]);
  },
};
