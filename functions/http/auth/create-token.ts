import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { issueToken } from '../../../shared/auth/tokens';
import { CreateTokenBody } from '../../../shared/domain/auth/token-input';
import { createdToken } from '../../../shared/views/auth';
import { tokenView } from './schemas';

/** The dashboard's "create token": never wider than the caller's own scopes, workspaces or mode. */
export const handler = route(
  { scope: 'admin:all', body: CreateTokenBody, status: 201, response: z.strictObject({ token: createdToken }) },
  async ({ body, token: caller, tenant, now, unit }) => {
    const { token, record } = await issueToken(unit, caller, tenant, body, now);
    return { token: { ...tokenView(record, now), token } };
  },
);
