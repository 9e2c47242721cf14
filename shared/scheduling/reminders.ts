import { dueBookingReminders } from '../data/bookings';
import { sendDueReminders } from './bookings';
import { drainDue } from '../data/timers';
import type { Unit } from '../data/unit';

/**
 * Sends each booking's reminders due by `now` and returns how many bookings it reminded. Each send is a versioned
 * write that also drops the reminder, so overlapping runs never repeat one.
 */
export const remindDueBookings = (unit: Unit, now: Date): Promise<number> =>
  drainDue(
    'booking reminder',
    (limit) => dueBookingReminders(now, limit),
    ({ tenant, id }) => sendDueReminders(unit, tenant, id, now),
  );
