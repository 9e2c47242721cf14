import * as z from 'zod';
import { livemode, tokenState, type TokenRecord } from '../../../shared/domain/auth/token';
import type { apiToken } from '../../../shared/views/auth';
import { ObjectId } from '../../../shared/http/params';

export const TokenParams = z.strictObject({ id: ObjectId });

export const tokenView = (t: TokenRecord, now: Date): z.infer<typeof apiToken> => ({
  _id: t._id,
  name: t.name,
  prefix: t.prefix,
  environment: t.environment,
  scopes: t.scopes,
  workspaceIds: t.workspaceIds,
  createdAt: t.createdAt,
  ...(t.expiresAt ? { expiresAt: t.expiresAt } : {}),
  ...(t.revokedAt ? { revokedAt: t.revokedAt } : {}),
  status: tokenState(t, now),
  livemode: livemode(t),
});
