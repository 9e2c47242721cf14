import * as z from 'zod';
import type { TokenRecord } from '../domain/auth/token';
import { id, time } from './common';
import { built } from '../domain/built';

/** The API's first spelling of the mode, still answered beside `livemode` so that no integration breaks. */
export const environment = /* @__PURE__ */ built(() =>
  z.enum(['live', 'test']).meta({ deprecated: true, description: 'Deprecated: `livemode` says the same.' }),
);

export const environmentOf = (livemode: boolean): 'live' | 'test' => (livemode ? 'live' : 'test');

/** A token as the API and the events show it: never its hash, nor its secret after creation. */
export const token = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      _id: id,
      name: z.string(),
      prefix: z.string(),
      livemode: z.boolean(),
      environment,
      scopes: z.array(z.string()),
      workspaceIds: z.array(id),
      createdAt: time,
      expiresAt: time.optional(),
      revokedAt: time.optional(),
    })
    .meta({ id: 'Token' }),
);

export const tokenBody = (t: TokenRecord): z.output<typeof token> => ({
  _id: t._id,
  name: t.name,
  prefix: t.prefix,
  livemode: t.livemode,
  environment: environmentOf(t.livemode),
  scopes: t.scopes,
  workspaceIds: t.workspaceIds,
  createdAt: t.createdAt,
  ...(t.expiresAt ? { expiresAt: t.expiresAt } : {}),
  ...(t.revokedAt ? { revokedAt: t.revokedAt } : {}),
});
