import { ConflictError, ValidationError } from '../errors';
import type { Customer } from './customer';

/** A customer with conversations cannot be deleted: merge it into another customer, or delete those first. */
export const assertDeletable = (conversationCount: number): void => {
  if (conversationCount > 0) {
    throw new ConflictError('Customer has conversations; delete them or merge this customer into another', {
      conversations: conversationCount,
    });
  }
};

export const assertMergeable = (baseId: string, mergeeId: string): void => {
  if (baseId === mergeeId) throw new ValidationError([{ path: 'mergeeId', message: 'Must differ from baseId' }]);
};

/** Messages from a blocked customer are refused. */
export const assertNotBlocked = (customer: Pick<Customer, '_id' | 'blocked'>): void => {
  if (customer.blocked) throw new ConflictError('Customer is blocked', { customerId: customer._id });
};
