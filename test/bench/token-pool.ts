import type { Scope } from '../../shared/domain/auth/scopes';
import { tokenFor } from '../support/tenants';

/** Hands out tokens so that no timed request is ever rate limited: each token serves `perToken` calls. */
export const tokenPool = (workspaceId: string, perToken: number, scope: Scope = 'tags:write') => {
  let used = 0;
  let current: Promise<string> | undefined;
  return () => {
    if (used++ % perToken === 0) current = tokenFor([workspaceId], [scope]).then((t) => t.token);
    return current!;
  };
};
