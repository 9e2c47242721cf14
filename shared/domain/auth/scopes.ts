export const SCOPES = [
  'inbox:read',
  'inbox:write',
  'crm:read',
  'crm:create',
  'crm:update',
  'crm:delete',
  'contacts:read',
  'contacts:write',
  'channels:read',
  'channels:write',
  'workflows:read',
  'workflows:write',
  'webhooks:read',
  'webhooks:write',
  'ai:read',
  'ai:write',
  'tags:read',
  'tags:write',
  'analytics:read',
  'admin:all',
] as const;

export type Scope = (typeof SCOPES)[number];

const known: ReadonlySet<string> = new Set(SCOPES);

export const isScope = (value: string): value is Scope => known.has(value);

/** `admin:all` grants every scope. */
export const grants = (held: readonly string[], required: Scope): boolean => held.includes('admin:all') || held.includes(required);
