import { route } from '../../../shared/http/route';
import { customerBatch } from '../../../shared/views/contacts';
import { batchUpsertCustomers } from '../../../shared/contacts/batch-upsert';
import { BatchUpsertCustomers, parseInputs } from './schemas';

export const handler = route(
  { scope: 'contacts:write', body: BatchUpsertCustomers, response: customerBatch },
  async ({ body, tenant, now, unit }) => batchUpsertCustomers(unit, tenant, body.idProperty, parseInputs(body.inputs), now),
);
