import type { HttpRoute, ScheduleSpec } from './types';

const TAGS = '/api/v1/tags';
const ENTITY_PATHS = { conversation: '/api/v1/inbox/conversations', customer: '/api/v1/contacts/customers', lead: '/api/v1/crm/leads' } as const;

const fn = (name: string) => `functions/http/tags/${name}.ts`;

/** The tag routes every entity type gets under its own path. */
const entityRoutes = (type: keyof typeof ENTITY_PATHS): HttpRoute[] => [
  {
    method: 'GET',
    path: `${ENTITY_PATHS[type]}/{id}/tags`,
    handler: fn(`list-${type}-tags`),
    access: { table: 'read' },
    summary: `Tags on a ${type}`,
  },
  {
    method: 'POST',
    path: `${ENTITY_PATHS[type]}/{id}/tags`,
    handler: fn(`tag-${type}`),
    access: { table: 'write' },
    summary: `Attach tags to a ${type}`,
  },
  {
    method: 'DELETE',
    path: `${ENTITY_PATHS[type]}/{id}/tags/{tagId}`,
    handler: fn(`untag-${type}`),
    access: { table: 'write' },
    summary: `Detach a tag from a ${type}`,
  },
];

export const tagRoutes: HttpRoute[] = [
  { method: 'POST', path: TAGS, handler: fn('create-tag'), access: { table: 'write' }, summary: 'Create a tag' },
  { method: 'GET', path: TAGS, handler: fn('list-tags'), access: { table: 'read' }, summary: 'List tags by name' },
  { method: 'GET', path: `${TAGS}/{id}`, handler: fn('get-tag'), access: { table: 'read' }, summary: 'A tag with its usage counts' },
  { method: 'PATCH', path: `${TAGS}/{id}`, handler: fn('update-tag'), access: { table: 'write' }, summary: 'Rename or recolor a tag' },
  {
    method: 'DELETE',
    path: `${TAGS}/{id}`,
    handler: fn('delete-tag'),
    access: { table: 'write' },
    summary: 'Delete a tag, detaching it everywhere',
    timeoutSeconds: 29,
  },
  // Bulk calls write one transaction per entity (up to 100): they get the API's longest timeout.
  { method: 'POST', path: `${TAGS}/bulk`, handler: fn('bulk-tag'), access: { table: 'write' }, summary: 'Tag many entities at once', timeoutSeconds: 29 },
  {
    method: 'POST',
    path: `${TAGS}/bulk/remove`,
    handler: fn('bulk-untag'),
    access: { table: 'write' },
    summary: 'Untag many entities at once',
    timeoutSeconds: 29,
  },
  ...entityRoutes('conversation'),
  ...entityRoutes('customer'),
  ...entityRoutes('lead'),
];

export const tagSchedules: ScheduleSpec[] = [
  {
    name: 'finish-tag-deletions',
    everyMinutes: 5,
    target: { handler: 'functions/schedules/finish-tag-deletions.ts', access: { table: 'write' }, timeoutSeconds: 60 },
  },
];
