import * as z from 'zod';
import { erasure as erasureView } from '../../views/erasures';
import { declare } from './define';

export const erasure = /* @__PURE__ */ declare({
  name: 'Erasure',
  itemTypes: ['ERASURE', 'ERASURE_OF', 'ERASED_CSV'],
  personal: [],
  about:
    "The erasure of one customer's personal data: its next step, its counts and, while it runs, `needles` (the ids of the " +
    "customer's conversations and files, to find the events and answers that name them; removed when it completes). " +
    'Its claim `ERASURE_OF` makes one erasure per customer; `ERASED_CSV#<object key>` records that a bulk CSV was counted as ' +
    'rewritten without the customer (so a run again after a crash counts it once). Kept, as the record that the erasure was done.',
  prefixes: ['ERASURE', 'ERASURE_OF', 'ERASED_CSV'],
  keys: { pk: 'WS#<tenant>#ERASURE#<id>', sk: 'ERASURE' },
  patterns: [
    { read: 'erasure by id', by: 'pk=<tenant>#ERASURE#<id> sk=ERASURE' },
    { read: 'erasure of a customer', by: 'pk=<tenant>#ERASURE_OF#<customer id> sk=ERASURE_OF' },
    { read: 'a bulk CSV rewritten by the erasure', by: 'pk=<tenant>#ERASURE#<id> sk=ERASED_CSV#<object key>' },
  ],
  schema: () => erasureView.extend({ step: z.number().int().min(0) }),
});
