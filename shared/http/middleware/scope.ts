import { AppError } from '../../domain/errors';
import { grants, type Scope } from '../../domain/auth/scopes';
import { stateOf, type HttpMiddleware } from '../state';

export const requireScope = (scope: Scope): HttpMiddleware => ({
  before: (request) => {
    if (!grants(stateOf(request).token!.scopes, scope)) {
      throw new AppError('FORBIDDEN', `This API token lacks the required scope ${scope}`, { requiredScope: scope });
    }
  },
});
