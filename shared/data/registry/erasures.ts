import * as z from 'zod';
import { zeroErasureCounts } from '../../domain/erasure/erasure';
import { erasure as erasureView } from '../../views/erasures';
import { declare } from './define';

export const erasure = /* @__PURE__ */ declare({
  name: 'Erasure',
  itemTypes: ['ERASURE'],
  personal: [],
  about:
    "The erasure of one customer's personal data: its next step, its counts and, while it runs, `needles` (the ids of the " +
    "customer's conversations and files, to find the events and answers that name them; removed when it completes). " +
    'Kept, as the record that the erasure was done.',
  prefixes: ['ERASURE'],
  keys: { pk: 'WS#<tenant>#ERASURE#<id>', sk: 'ERASURE' },
  patterns: [{ read: 'erasure by id', by: 'pk=<tenant>#ERASURE#<id> sk=ERASURE' }],
  schema: () =>
    erasureView.extend({
      // A count first kept by a later step is absent from an item written before it.
      counts: z.preprocess((stored) => ({ ...zeroErasureCounts(), ...(stored ?? {}) }), erasureView.shape.counts),
      step: z.number().int().min(0),
      needles: z.set(z.string()).optional(),
    }),
});

export const erasureClaim = /* @__PURE__ */ declare({
  name: 'Erasure claim',
  itemTypes: ['ERASURE_OF'],
  personal: [],
  about: 'The one erasure of a customer, created with it: a second request for the customer finds it and is refused.',
  prefixes: ['ERASURE_OF'],
  keys: { pk: 'WS#<tenant>#ERASURE_OF#<customerId>', sk: 'ERASURE_OF' },
  patterns: [{ read: 'erasure of a customer', by: 'pk=<tenant>#ERASURE_OF#<customer id> sk=ERASURE_OF' }],
  schema: () => z.object({ erasureId: z.string() }),
});

export const erasedCsv = /* @__PURE__ */ declare({
  name: 'Erased CSV',
  itemTypes: ['ERASED_CSV'],
  personal: [],
  about:
    "Records that a bulk CSV was counted as rewritten without the customer, in its erasure's partition, so a run again after a crash counts it once.",
  prefixes: ['ERASED_CSV'],
  keys: { pk: 'WS#<tenant>#ERASURE#<id>', sk: 'ERASED_CSV#<objectKey>' },
  patterns: [{ read: 'a bulk CSV rewritten by the erasure', by: 'pk=<tenant>#ERASURE#<id> sk=ERASED_CSV#<object key>' }],
  schema: () => z.object({}),
});
