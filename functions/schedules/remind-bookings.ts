import { dueBookingReminders, sendDueReminders } from '../../shared/data/bookings';
import { drainDue } from '../../shared/data/timers';
import { scheduled } from '../../shared/observability/invocation';

/**
 * Every minute: sends `scheduling.booking.reminder` for each booking whose 24 h or 1 h reminder is due.
 * Each send is a versioned write that also drops the reminder, so overlapping runs never repeat one.
 */
export const handler = scheduled(async (): Promise<{ reminded: number }> => {
  const now = new Date();
  const reminded = await drainDue(
    'booking reminder',
    (limit) => dueBookingReminders(now, limit),
    ({ tenant, id }) => sendDueReminders(tenant, id, now),
  );
  return { reminded };
});
