import { entity } from './define';

export const booking = entity({
  name: 'Booking',
  itemTypes: ['BOOKING', 'SLOT_CLAIM'],
  personal: ['title', 'notes', 'location'],
  about: "A booking (versioned), with reminders to send in the timer's sparse index, and one claim per quarter hour it holds.",
  prefixes: ['BOOKING', 'BOOKINGREMIND', 'BOOKINGLIST', 'SLOT'],
  keys: {
    pk: '<tenant>#BOOKING#<id> | <tenant>#SLOT#<assignee>',
    sk: 'BOOKING | <slot start>',
    gsi1pk: 'BOOKINGREMIND',
    gsi1sk: '<earliest reminder>#<tenant>#<id>',
  },
  patterns: [
    { read: 'booking by id', by: 'pk=<tenant>#BOOKING#<id> sk=BOOKING' },
    { read: 'claimed slots of an assignee', by: 'pk=<tenant>#SLOT#<assignee> sk between <from> and <to>' },
    { read: 'reminders due', by: 'gsi1pk=BOOKINGREMIND gsi1sk ≤ now', index: 'gsi1' },
    { read: 'a list of bookings', by: 'pk=<tenant>#BOOKINGLIST#<list>' },
  ],
});
