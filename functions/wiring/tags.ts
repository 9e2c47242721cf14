import { areaRoutes } from './route';
import type { AreaWiring, HttpRoute } from './types';

const TAGS = '/api/v1/tags';
const ENTITY_PATHS = {
  conversation: '/api/v1/inbox/conversations',
  customer: '/api/v1/contacts/customers',
  lead: '/api/v1/crm/leads',
} as const;
const route = areaRoutes('tags');
/** Deleting a tag detaches it everywhere, and a bulk call writes one transaction per entity (up to 100): the API's longest timeout. */
const long = { timeoutSeconds: 29 };

/** The tag routes every entity type gets under its own path. */
const entityRoutes = (type: keyof typeof ENTITY_PATHS): HttpRoute[] => [
  route('GET', `${ENTITY_PATHS[type]}/{id}/tags`, `list-${type}-tags`, `Tags on a ${type}`),
  route('POST', `${ENTITY_PATHS[type]}/{id}/tags`, `tag-${type}`, `Attach tags to a ${type}`),
  route('DELETE', `${ENTITY_PATHS[type]}/{id}/tags/{tagId}`, `untag-${type}`, `Detach a tag from a ${type}`),
];

export const tagsWiring = {
  routes: [
    route('POST', TAGS, 'create-tag', 'Create a tag'),
    route('GET', TAGS, 'list-tags', 'List tags by name'),
    route('GET', `${TAGS}/{id}`, 'get-tag', 'A tag with its usage counts'),
    route('PATCH', `${TAGS}/{id}`, 'update-tag', 'Rename or recolor a tag'),
    route('DELETE', `${TAGS}/{id}`, 'delete-tag', 'Delete a tag, detaching it everywhere', long),
    route('POST', `${TAGS}/bulk`, 'bulk-tag', 'Tag many entities at once', long),
    route('POST', `${TAGS}/bulk/remove`, 'bulk-untag', 'Untag many entities at once', long),
    ...entityRoutes('conversation'),
    ...entityRoutes('customer'),
    ...entityRoutes('lead'),
  ],
  schedules: [
    {
      name: 'finish-tag-deletions',
      everyMinutes: 5,
      target: { handler: 'functions/schedules/finish-tag-deletions.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
} satisfies AreaWiring;
