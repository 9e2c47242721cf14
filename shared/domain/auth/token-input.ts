import * as z from 'zod';
import { OBJECT_ID } from '../../ids';
import { OUT_OF_RANGE, withinBounds } from '../dates';
import { isScope, SCOPES } from './scopes';
import { built } from '../built';

const name = /* @__PURE__ */ built(() => z.string().trim().min(1, 'Required').max(100));
const workspaceIds = /* @__PURE__ */ built(() =>
  z.array(z.string().regex(OBJECT_ID, 'Must be a 24-character hex workspace id')).min(1, 'At least one workspace').max(100),
);
const scopes = /* @__PURE__ */ built(() =>
  z
    .array(z.string().refine(isScope, { message: `Unknown scope; expected one of ${SCOPES.join(', ')}` }))
    .min(1, 'At least one scope')
    .max(SCOPES.length * 2),
);
const expiresAt = /* @__PURE__ */ built(() =>
  z
    .union([z.iso.datetime({ offset: true }), z.iso.date()], { error: 'Must be an ISO-8601 date or date-time' })
    .refine(withinBounds, OUT_OF_RANGE)
    .transform((v) => new Date(v).toISOString()),
);

export const isFuture = (iso: string, now: Date): boolean => Date.parse(iso) > now.getTime();
const FUTURE = 'Must be in the future';

/** What a token creator must supply, whoever the creator is (the CLI; the API's body is `CreateTokenBody`). */
export const NewTokenInput = (now: Date) =>
  z.strictObject({
    name,
    workspaceIds,
    scopes,
    livemode: z.boolean(),
    expiresAt: expiresAt.refine((v) => isFuture(v, now), FUTURE).optional(),
  });

/**
 * `POST /auth/tokens`: the workspaces default to the one the request acts in, the mode to the caller's.
 * `expiresAt` must lie in the future (judged at request time by `grantToken`).
 */
export const CreateTokenBody = /* @__PURE__ */ built(() =>
  z.strictObject({
    name,
    scopes,
    workspaceIds: workspaceIds.optional(),
    expiresAt: expiresAt.optional(),
    test: z.boolean().optional(),
  }),
);

export const WorkspaceName = /* @__PURE__ */ built(() => z.string().trim().min(1, 'Required').max(100));
