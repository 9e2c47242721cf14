import { areaRoutes } from './route';
import { BULK_QUEUE } from './bulk';
import type { AreaWiring } from './types';

const contacts = areaRoutes('contacts');

/**
 * Erasures of customers' personal data: a route records the job and queues it on the bulk queue (`bulk.ts`),
 * whose worker runs its steps (docs/guide/data-rights.md).
 */
export const erasuresWiring = {
  routes: [
    contacts(
      'POST',
      '/api/v1/contacts/customers/{id}/erase',
      'erase-customer',
      "Erase a customer's personal data from every copy, in the background",
      { access: { table: 'write', queues: [BULK_QUEUE] } },
    ),
    contacts('GET', '/api/v1/contacts/erasures/{id}', 'get-erasure', 'An erasure: its status and what it removed'),
  ],
} satisfies AreaWiring;
