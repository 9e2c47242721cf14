import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { callerToken } from '../../../shared/views/auth';
import { environmentOf } from '../../../shared/views/tokens';

export const handler = route({ scope: null, workspace: false, response: z.strictObject({ token: callerToken }) }, async ({ token }) => ({
  token: {
    _id: token._id,
    name: token.name,
    prefix: token.prefix,
    environment: environmentOf(token.livemode),
    livemode: token.livemode,
    scopes: token.scopes,
    workspaceIds: token.workspaceIds,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt ?? null,
  },
}));
