import type { Tenant } from '../domain/auth/tenant';
import type { Passage } from '../domain/ai/passages';
import { KnowledgeIndex } from './search-index';
import { changesSince, indexDoc, indexDocs, indexSeq } from '../data/kb-index';

/**
 * A change log this far behind is not replayed article by article: the index is rebuilt from its documents.
 */
const REBUILD_AFTER_CHANGES = 500;

interface Cached {
  index: KnowledgeIndex;
  seq: number;
}

/** Per warm container: each tenant's index and the change number it reflects, least recently used first. */
const cache = new Map<Tenant, Promise<Cached>>();
/** A 5,000-article index takes tens of MB: a container keeps a few tenants, not every one it ever served. */
const MAX_CACHED_TENANTS = 8;

const build = async (tenant: Tenant): Promise<Cached> => {
  // The sequence is read before the documents: a change that lands during the read is replayed next time.
  const seq = await indexSeq(tenant);
  const index = new KnowledgeIndex();
  for await (const doc of indexDocs(tenant)) index.put(doc);
  return { index, seq };
};

const catchUp = async (tenant: Tenant, cached: Cached): Promise<Cached> => {
  const head = await indexSeq(tenant);
  if (head === cached.seq) return cached;
  if (head - cached.seq > REBUILD_AFTER_CHANGES) return build(tenant);
  const changed = [...new Set(await changesSince(tenant, cached.seq, head))];
  const docs = await Promise.all(changed.map((id) => indexDoc(tenant, id)));
  changed.forEach((id, i) => {
    const doc = docs[i];
    if (doc) cached.index.put(doc);
    else cached.index.remove(id);
  });
  return { index: cached.index, seq: head };
};

/**
 * The tenant's index, current as of this call: one consistent GetItem when nothing changed, a Query of the
 * changes since otherwise, a full build on a cold container. Concurrent callers share one refresh.
 */
const knowledgeIndex = async (tenant: Tenant): Promise<KnowledgeIndex> => {
  const previous = cache.get(tenant);
  const next = previous ? previous.then((c) => catchUp(tenant, c)) : build(tenant);
  cache.delete(tenant);
  cache.set(tenant, next);
  if (cache.size > MAX_CACHED_TENANTS) cache.delete(cache.keys().next().value!);
  try {
    return (await next).index;
  } catch (error) {
    if (cache.get(tenant) === next) cache.delete(tenant);
    throw error;
  }
};

export const searchKnowledge = async (tenant: Tenant, query: string, opts: { limit: number; language?: string }): Promise<Passage[]> =>
  (await knowledgeIndex(tenant)).query(query, opts);
