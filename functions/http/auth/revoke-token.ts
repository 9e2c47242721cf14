import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { getToken, revokeToken } from '../../../shared/data/tokens';
import { NotFoundError } from '../../../shared/domain/errors';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { manages } from '../../../shared/domain/auth/token-grant';
import { apiToken } from '../../../shared/views/auth';
import { TokenParams, tokenView } from './schemas';

/** Revoked at once: the token's very next request gets 401. A token the caller does not manage is not found. */
export const handler = route(
  { scope: 'admin:all', params: TokenParams, response: z.strictObject({ token: apiToken }), errors: ['CONFLICT'] },
  async ({ params, token: caller, tenant, now }) => {
    const target = await getToken(params.id);
    if (!target || !manages(caller, tenantParts(tenant).workspaceId, target)) throw new NotFoundError('Token');
    return { token: tokenView(await revokeToken(target._id, now), now) };
  },
);
