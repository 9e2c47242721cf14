import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import type { Booking } from '../domain/scheduling/booking';

const STATUS = {
  pending: ICalEventStatus.TENTATIVE,
  confirmed: ICalEventStatus.CONFIRMED,
  cancelled: ICalEventStatus.CANCELLED,
  completed: ICalEventStatus.CONFIRMED,
  no_show: ICalEventStatus.CONFIRMED,
} as const;

/**
 * A booking as an RFC 5545 calendar with one VEVENT, in UTC. Its UID is stable per booking and its
 * SEQUENCE follows the booking's stored version, so importing the file again after a reschedule or
 * cancellation updates the same calendar entry instead of being ignored as stale.
 */
export const bookingCalendar = (b: Booking, version: number, workspaceName: string): string => {
  const calendar = ical({
    name: workspaceName,
    prodId: { company: 'Parley', product: 'Parley', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  calendar.createEvent({
    id: `${b._id}@parley`,
    sequence: version - 1,
    start: new Date(b.startAt),
    end: new Date(b.endAt),
    stamp: new Date(b.updatedAt),
    created: new Date(b.createdAt),
    lastModified: new Date(b.updatedAt),
    summary: b.title,
    description: b.notes ?? undefined,
    location: b.location ?? undefined,
    status: STATUS[b.status],
  });
  return calendar.toString();
};
