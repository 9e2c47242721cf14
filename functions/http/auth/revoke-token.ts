import { route } from '../../../shared/http/route';
import { deletion } from '../../../shared/views/deletion';
import { revokeManagedToken } from '../../../shared/auth/tokens';
import { apiToken } from '../../../shared/views/auth';
import { TokenParams, tokenView } from './schemas';

/** Revoked at once: the token's very next request gets 401. A token the caller does not manage is not found. */
export const handler = route(
  { scope: 'admin:all', params: TokenParams, response: deletion('token', apiToken), errors: ['CONFLICT'] },
  async ({ params, token: caller, tenant, now, unit }) => ({
    token: tokenView(await revokeManagedToken(unit, caller, tenant, params.id, now), now),
    deleted: true as const,
  }),
);
