import * as z from 'zod';
import type { ReminderKind } from '../../domain/scheduling/booking';
import { booking as bookingView } from '../../views/scheduling';
import { declare } from './define';
import { built } from '../../domain/built';

const reminder = /* @__PURE__ */ built(() => z.object({ kind: z.custom<ReminderKind>((k) => k === '24h' || k === '1h'), at: z.string() }));

export const booking = /* @__PURE__ */ declare({
  name: 'Booking',
  itemTypes: ['BOOKING'],
  personal: ['title', 'notes', 'location'],
  about: "A booking (versioned), with the reminders it still owes; while it owes any it is in the timer's sparse index.",
  prefixes: ['BOOKING', 'BOOKINGREMIND', 'BOOKINGLIST'],
  keys: { pk: 'WS#<tenant>#BOOKING#<id>', sk: 'BOOKING', gsi1pk: 'BOOKINGREMIND', gsi1sk: '<earliestReminder>#<tenant>#<id>' },
  patterns: [
    { read: 'booking by id', by: 'pk=<tenant>#BOOKING#<id> sk=BOOKING' },
    { read: 'reminders due', by: 'gsi1pk=BOOKINGREMIND gsi1sk ≤ now', index: 'gsi1' },
    { read: 'a list of bookings', by: 'pk=<tenant>#BOOKINGLIST#<list>' },
  ],
  schema: () => bookingView.extend({ version: z.number(), reminders: z.array(reminder).default([]) }),
});

export const slotClaim = /* @__PURE__ */ declare({
  name: 'Slot claim',
  itemTypes: ['SLOT_CLAIM'],
  personal: [],
  about:
    'One quarter hour a booking holds for its assignee, created on condition it does not exist: two overlapping bookings need the same claim, so at most one commits.',
  prefixes: ['SLOT'],
  keys: { pk: 'WS#<tenant>#SLOT#<assigneeId>', sk: '<slotStart>' },
  patterns: [{ read: 'claimed slots of an assignee', by: 'pk=<tenant>#SLOT#<assigneeId> sk between <from> and <to>' }],
  schema: () => z.object({ bookingId: z.string() }),
});
