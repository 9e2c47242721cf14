import { remindDueBookings } from '../../shared/scheduling/reminders';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: sends `scheduling.booking.reminder` for each booking whose 24 h or 1 h reminder is due. */
export const handler = scheduled(async (): Promise<{ reminded: number }> => ({ reminded: await remindDueBookings(direct, new Date()) }));
