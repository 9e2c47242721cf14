import type { Tenant } from '../domain/auth/tenant';
import type { Audience } from '../domain/broadcasts/broadcast';
import { tagLinkKey } from '../data/entity-keys';
import { queryAll } from '../data/query';

/** The audience's customer ids, each once: the listed ones first, then those carrying any of the tags. */
export async function* audienceOf(tenant: Tenant, audience: Audience): AsyncGenerator<string> {
  const seen = new Set<string>();
  for (const id of audience.customerIds ?? []) {
    if (!seen.has(id)) yield id;
    seen.add(id);
  }
  for (const tagId of audience.tagIds ?? []) {
    const { pk } = tagLinkKey(tenant, tagId, 'customer', '');
    for await (const link of queryAll({ pk, skPrefix: 'customer#' })) {
      const id = (link.sk as string).slice('customer#'.length);
      if (!seen.has(id)) yield id;
      seen.add(id);
    }
  }
}
