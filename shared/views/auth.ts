import * as z from 'zod';
import type { TokenRecord } from '../domain/auth/token';
import { WEEKDAYS, type Workspace } from '../domain/auth/workspace';
import { MemberStatus, Role, type Member } from '../domain/auth/member';
import { exactly, id, time } from './common';

export const token = exactly<TokenRecord>()(
  z.strictObject({
    _id: id,
    name: z.string(),
    prefix: z.string(),
    environment: z.enum(['live', 'test']),
    scopes: z.array(z.string()),
    workspaceIds: z.array(id),
    createdAt: time,
    expiresAt: time.optional(),
    revokedAt: time.optional(),
  }),
).meta({ id: 'Token' });

const span = z.strictObject({ start: z.string(), end: z.string() });

export const workspace = exactly<Workspace>()(
  z.strictObject({
    _id: id,
    name: z.string(),
    timezone: z.string(),
    locale: z.string(),
    businessHours: z.strictObject(Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(span)])) as Record<(typeof WEEKDAYS)[number], z.ZodArray<typeof span>>),
    createdAt: time,
    updatedAt: time,
  }),
).meta({ id: 'Workspace' });

export const member = exactly<Member>()(
  z.strictObject({
    _id: id,
    email: z.string(),
    name: z.string().nullable(),
    role: Role,
    status: MemberStatus,
    invitedAt: time,
    joinedAt: time.nullable(),
    removedAt: time.nullable(),
    createdAt: time,
    updatedAt: time,
  }),
).meta({ id: 'Member' });
