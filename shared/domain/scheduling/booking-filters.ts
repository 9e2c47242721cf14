import { ValidationError } from '../errors';
import type { BookingStatus } from './booking';

export interface BookingFilters {
  assigneeId?: string;
  customerId?: string;
  status?: BookingStatus;
  from?: string;
  to?: string;
}

/** The list a filter combination reads: only assigneeId and status combine; `from`/`to` narrow any list by start. */
export const bookingListOf = (f: BookingFilters): string => {
  const given = (['assigneeId', 'customerId', 'status'] as const).filter((k) => f[k] !== undefined);
  if (given.length > 1 && !(given.length === 2 && f.assigneeId && f.status)) {
    throw new ValidationError(
      given
        .slice(1)
        .map((path) => ({ path, message: 'Filters cannot be combined, except assigneeId with status (from and to combine with any)' })),
    );
  }
  if (f.assigneeId) return f.status ? `assignee:${f.assigneeId}:status:${f.status}` : `assignee:${f.assigneeId}`;
  if (f.status) return `status:${f.status}`;
  if (f.customerId) return `customer:${f.customerId}`;
  return 'all';
};
