import { AppError } from '../../domain/errors';
import { tenantOf } from '../../domain/auth/tenant';
import { isObjectId } from '../../ids';
import { header, stateOf, type HttpMiddleware } from '../state';

/**
 * Requires `x-workspace-id` (400 when missing or ill-formed) that the token is bound to (403 otherwise),
 * and scopes the request to that workspace in the token's mode.
 */
export const workspace = (): HttpMiddleware => ({
  before: (request) => {
    const state = stateOf(request);
    const id = header(request.event, 'x-workspace-id');
    if (!id)
      throw new AppError('BAD_REQUEST', 'Missing x-workspace-id header', { errors: [{ path: 'x-workspace-id', message: 'Required' }] });
    if (!isObjectId(id)) {
      throw new AppError('BAD_REQUEST', 'x-workspace-id must be a 24-character hex workspace id', {
        errors: [{ path: 'x-workspace-id', message: 'Must be a 24-character lowercase hex id' }],
      });
    }
    if (!state.token?.workspaceIds.includes(id)) {
      throw new AppError('WORKSPACE_ACCESS_DENIED', 'This API token has no access to the requested workspace');
    }
    state.tenant = tenantOf(id, state.token.livemode);
  },
});
