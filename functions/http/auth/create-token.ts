import * as z from 'zod';
import { route } from '../../../shared/http/route';
import { createToken } from '../../../shared/data/tokens';
import { grantToken } from '../../../shared/domain/auth/token-grant';
import { tenantParts } from '../../../shared/domain/auth/tenant';
import { CreateTokenBody } from '../../../shared/domain/auth/token-input';
import { createdToken } from '../../../shared/views/auth';
import { tokenView } from './schemas';

/** The dashboard's "create token": never wider than the caller's own scopes, workspaces or mode. */
export const handler = route(
  { scope: 'admin:all', body: CreateTokenBody, status: 201, response: z.strictObject({ token: createdToken }) },
  async ({ body, token: caller, tenant, now }) => {
    const granted = grantToken(caller, tenantParts(tenant).workspaceId, body, now);
    const { token, record } = await createToken(granted, now);
    return { token: { ...tokenView(record, now), token } };
  },
);
