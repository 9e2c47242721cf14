import { route } from '../../../shared/http/route';
import { wholeList } from '../../../shared/http/pagination';
import { managedTokens } from '../../../shared/auth/tokens';
import { apiToken } from '../../../shared/views/auth';
import { listOf } from '../../../shared/views/common';
import { tokenView } from './schemas';

/** The workspace's tokens in the caller's mode, newest first, revoked and expired ones included; never a secret. */
export const handler = route({ scope: 'admin:all', response: listOf('tokens', apiToken) }, async ({ token: caller, tenant, now }) => {
  const tokens = (await managedTokens(caller, tenant)).map((t) => tokenView(t, now));
  return { tokens, pagination: wholeList(tokens.length) };
});
