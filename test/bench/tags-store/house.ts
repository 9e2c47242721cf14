import { outboxItem } from '../../../shared/data/outbox';
import { getTag, tagCreation, tagsPage } from '../../../shared/data/tags';
import { entityTagWrites, tagCountWrites } from '../../../shared/data/tags-tagging';
import { transact } from '../../../shared/data/transact';
import type { TagStore } from './store';

/** The house registry's tags storage (shared/data), as the routes use it. */
export const house: TagStore = {
  create: async (tenant, tag) => {
    await transact(tagCreation(tenant, tag));
  },
  get: getTag,
  page: async (tenant, limit) => (await tagsPage(tenant, { limit })).tags,
  tagCustomer: async (tenant, customerId, tagId, event) => {
    const change = { before: [], after: [tagId], delta: [tagId] };
    await transact([
      ...entityTagWrites(tenant, 'customer', customerId, change, 'tag', new Date(event.occurredAt)),
      ...tagCountWrites(tenant, 'customer', 'tag', new Map([[tagId, 1]]), () => new Error('tag gone')),
      outboxItem(event),
    ]);
  },
};
