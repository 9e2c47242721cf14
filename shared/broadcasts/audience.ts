import type { Tenant } from '../domain/auth/tenant';
import type { Audience } from '../domain/broadcasts/broadcast';
import { taggedEntityIds } from '../data/tag-links';

/** The audience's customer ids, each once: the listed ones first, then those carrying any of the tags. */
export async function* audienceOf(tenant: Tenant, audience: Audience): AsyncGenerator<string> {
  const seen = new Set<string>();
  for (const id of audience.customerIds ?? []) {
    if (!seen.has(id)) yield id;
    seen.add(id);
  }
  for (const tagId of audience.tagIds ?? []) {
    for await (const id of taggedEntityIds(tenant, tagId, 'customer')) {
      if (!seen.has(id)) yield id;
      seen.add(id);
    }
  }
}
