import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { callerToken } from '../../../shared/views/auth';
import { livemode } from '../../../shared/domain/auth/token';

export const handler = route({ scope: null, workspace: false, response: z.strictObject({ token: callerToken }) }, async ({ token }) => ({
  token: {
    _id: token._id,
    name: token.name,
    prefix: token.prefix,
    environment: token.environment,
    livemode: livemode(token),
    scopes: token.scopes,
    workspaceIds: token.workspaceIds,
    createdAt: token.createdAt,
    expiresAt: token.expiresAt ?? null,
  },
}));
