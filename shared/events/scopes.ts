import type { Scope } from '../domain/auth/scopes';
import type { eventTypeList } from './types';

type CategoryOf<T> = T extends `${infer C}.${string}` ? C : never;
type Category = CategoryOf<(typeof eventTypeList)[number]['type']>;

/**
 * The read scope a token needs to see a category's events in the events log and on the realtime socket
 * (docs/guide/realtime.md). Each category is read with the scope of the routes that read its resources:
 * broadcasts are channel sends, bookings are inbox work, and `auth.*` (members, tokens, the workspace)
 * is the administrator's. A category added to the catalog fails to compile until it is named here.
 */
export const CATEGORY_READ_SCOPES = {
  inbox: 'inbox:read',
  customer: 'contacts:read',
  auth: 'admin:all',
  crm: 'crm:read',
  channel: 'channels:read',
  workflow: 'workflows:read',
  ai: 'ai:read',
  broadcast: 'channels:read',
  scheduling: 'inbox:read',
} as const satisfies Record<Category, Scope>;

/** The read scope of an event type's category (undefined for what no category names, such as `webhook.ping`). */
export const readScopeOf = (eventType: string): Scope | undefined =>
  (CATEGORY_READ_SCOPES as Record<string, Scope>)[eventType.split('.')[0]!];
