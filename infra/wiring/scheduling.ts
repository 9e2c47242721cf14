import { areaRoute } from './inbox';
import type { HttpRoute, ScheduleSpec } from './types';

const BOOKINGS = '/api/v1/scheduling/bookings';
const http = areaRoute('scheduling');

export const schedulingWiring: { routes: HttpRoute[]; schedules: ScheduleSpec[] } = {
  routes: [
    http('POST', BOOKINGS, 'create-booking', 'Book an assignee for a customer (never double-booked)'),
    http('GET', BOOKINGS, 'list-bookings', 'List bookings by start time, filtered by assignee, customer, status and a time range'),
    http('GET', `${BOOKINGS}/{id}`, 'get-booking', 'Get a booking'),
    http('GET', `${BOOKINGS}/{id}/ics`, 'get-booking-ics', 'A booking as an iCalendar (.ics) file'),
    http('POST', `${BOOKINGS}/{id}/reschedule`, 'reschedule-booking', 'Move a pending or confirmed booking (and optionally reassign it)'),
    http('POST', `${BOOKINGS}/{id}/confirm`, 'confirm-booking', 'Confirm a pending booking'),
    http('POST', `${BOOKINGS}/{id}/cancel`, 'cancel-booking', 'Cancel a pending or confirmed booking, freeing its time'),
    http('POST', `${BOOKINGS}/{id}/complete`, 'complete-booking', 'Mark a confirmed booking that has started as completed'),
    http('POST', `${BOOKINGS}/{id}/no-show`, 'no-show-booking', 'Mark a confirmed booking that has started as a no-show'),
    http('GET', '/api/v1/scheduling/availability', 'get-availability', "An assignee's free slots: business hours in the workspace's timezone minus bookings"),
  ],
  schedules: [
    {
      name: 'remind-bookings',
      everyMinutes: 1,
      target: { handler: 'functions/schedules/remind-bookings.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
};
