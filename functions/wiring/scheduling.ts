import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const BOOKINGS = '/api/v1/scheduling/bookings';
const route = areaRoutes('scheduling');

export const schedulingWiring = {
  routes: [
    route('POST', BOOKINGS, 'create-booking', 'Book an assignee for a customer (never double-booked)'),
    route('GET', BOOKINGS, 'list-bookings', 'List bookings by start time, filtered by assignee, customer, status and a time range'),
    route('GET', `${BOOKINGS}/{id}`, 'get-booking', 'Get a booking'),
    route('GET', `${BOOKINGS}/{id}/ics`, 'get-booking-ics', 'A booking as an iCalendar (.ics) file'),
    route('POST', `${BOOKINGS}/{id}/reschedule`, 'reschedule-booking', 'Move a pending or confirmed booking (and optionally reassign it)'),
    route('POST', `${BOOKINGS}/{id}/confirm`, 'confirm-booking', 'Confirm a pending booking'),
    route('POST', `${BOOKINGS}/{id}/cancel`, 'cancel-booking', 'Cancel a pending or confirmed booking, freeing its time'),
    route('POST', `${BOOKINGS}/{id}/complete`, 'complete-booking', 'Mark a confirmed booking that has started as completed'),
    route('POST', `${BOOKINGS}/{id}/no-show`, 'no-show-booking', 'Mark a confirmed booking that has started as a no-show'),
    route(
      'GET',
      '/api/v1/scheduling/availability',
      'get-availability',
      "An assignee's free slots: business hours in the workspace's timezone minus bookings",
    ),
  ],
  schedules: [
    {
      name: 'remind-bookings',
      everyMinutes: 1,
      target: { handler: 'functions/schedules/remind-bookings.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
} satisfies AreaWiring;
