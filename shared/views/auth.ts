import * as z from 'zod';
import { WEEKDAYS, type Workspace } from '../domain/auth/workspace';
import { exactly, id, time } from './common';
import { built } from '../domain/built';
import { environment, token } from './tokens';

const span = /* @__PURE__ */ built(() => z.strictObject({ start: z.string(), end: z.string() }));

export const workspace = /* @__PURE__ */ built(() =>
  exactly<Workspace>()(
    z.strictObject({
      _id: id,
      name: z.string(),
      timezone: z.string(),
      locale: z.string(),
      businessHours: z.strictObject(
        Object.fromEntries(WEEKDAYS.map((d) => [d, z.array(span)])) as Record<(typeof WEEKDAYS)[number], z.ZodArray<typeof span>>,
      ),
      storageQuotaBytes: z.number().int().min(0),
      retention: z.strictObject({ closedConversationDays: z.number().int().nullable() }),
      createdAt: time,
      updatedAt: time,
    }),
  ).meta({ id: 'Workspace' }),
);

/** A token as the API lists it, with its state. */
export const apiToken = /* @__PURE__ */ built(() =>
  token.extend({ status: z.enum(['active', 'revoked', 'expired']) }).meta({ id: 'ApiToken' }),
);

/** A token just created: the one answer that shows its secret. */
export const createdToken = /* @__PURE__ */ built(() =>
  apiToken
    .extend({ token: z.string().describe('The secret token: shown in this response only, never again') })
    .meta({ id: 'CreatedApiToken' }),
);

/** The calling token, as `GET /auth/token` describes it. */
export const callerToken = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      _id: id,
      name: z.string(),
      prefix: z.string(),
      environment,
      livemode: z.boolean(),
      scopes: z.array(z.string()),
      workspaceIds: z.array(id),
      createdAt: time,
      expiresAt: time.nullable(),
    })
    .meta({ id: 'CallerToken' }),
);

/** A workspace the calling token may act in, in the token's mode. */
export const tokenWorkspace = /* @__PURE__ */ built(() => workspace.extend({ livemode: z.boolean() }).meta({ id: 'TokenWorkspace' }));
