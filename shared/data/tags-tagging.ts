import type { Tenant } from '../domain/auth/tenant';
import type { EntityType, TagAction, TagSetChange } from '../domain/tags/tagging';
import { bumpCounter } from './counters';
import { TAG_IDS_ATTRIBUTE } from './entity-keys';
import { taggedCounter, tagLinks } from './tag-links';
import { entityKey } from './tags-entities';
import { tagIsLive } from './tags';
import { updateItem, type Write } from './transact';

/** The entity update only commits if its tag set is exactly the one read: events carry a true before/after. */
const tagSetWrite = (key: { pk: string; sk: string }, before: string[], delta: string[], action: TagAction): Write => {
  const members = before.map((_, i) => `contains(#tags, :b${i})`);
  const exact = before.length === 0 ? 'attribute_not_exists(#tags)' : ['size(#tags) = :n', ...members].join(' AND ');
  return updateItem(key, `${action === 'tag' ? 'ADD' : 'DELETE'} #tags :delta`, {
    names: { '#tags': TAG_IDS_ATTRIBUTE },
    values: {
      ':delta': new Set(delta),
      ...(before.length ? { ':n': before.length } : {}),
      ...Object.fromEntries(before.map((t, i) => [`:b${i}`, t])),
    },
    condition: `attribute_exists(pk) AND ${exact}`,
  });
};

/** An entity's part of a tagging transaction: its tag set (exactly as read) and its tag links. */
export const entityTagWrites = (
  tenant: Tenant,
  type: EntityType,
  id: string,
  change: TagSetChange,
  action: TagAction,
  now: Date,
): Write[] => [
  tagSetWrite(entityKey(tenant, type, id), change.before, change.delta, action),
  ...tagLinks(tenant, type, id, change.delta, action === 'tag' ? 1 : -1, now),
];

/**
 * What the entities of one tagging transaction share: per tag, when attaching, the check that it is live (`onGone`
 * its error otherwise), and one write of its counter by the number of entities it joins or leaves.
 */
export const tagCountWrites = (
  tenant: Tenant,
  type: EntityType,
  action: TagAction,
  counts: ReadonlyMap<string, number>,
  onGone: (tagId: string) => Error,
): Write[] => [
  ...(action === 'tag' ? [...counts.keys()].map((t) => tagIsLive(tenant, t, () => onGone(t))) : []),
  ...[...counts].map(([t, n]) => bumpCounter(tenant, taggedCounter(t, type), action === 'tag' ? n : -n)),
];
