import * as z from 'zod';
import { erasure as erasureView } from '../../views/erasures';
import { declare } from './define';

export const erasure = declare({
  name: 'Erasure',
  itemTypes: ['ERASURE', 'ERASURE_OF'],
  personal: [],
  about:
    "The erasure of one customer's personal data: its next step, its counts and, while it runs, `needles` (the ids of the " +
    "customer's conversations and files, to find the events and answers that name them; removed when it completes). " +
    'Its claim `ERASURE_OF` makes one erasure per customer. Kept, as the record that the erasure was done.',
  prefixes: ['ERASURE', 'ERASURE_OF'],
  keys: { pk: 'WS#<tenant>#ERASURE#<id>', sk: 'ERASURE' },
  patterns: [
    { read: 'erasure by id', by: 'pk=<tenant>#ERASURE#<id> sk=ERASURE' },
    { read: 'erasure of a customer', by: 'pk=<tenant>#ERASURE_OF#<customer id> sk=ERASURE_OF' },
  ],
  schema: erasureView.extend({ step: z.number().int().min(0) }),
});
