import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const BASE = '/api/v1/contacts/customers';
const route = areaRoutes('contacts');
/** A batch writes one transaction per input (up to 100), as a bulk tag call does. */
const long = { timeoutSeconds: 29 };

export const contactsWiring = {
  routes: [
    route('POST', BASE, 'create-customer', 'Create a customer'),
    route('GET', BASE, 'list-customers', 'List customers; search by name, email or phone prefix, or filter by tag'),
    route('POST', `${BASE}/batch`, 'batch-upsert-customers', 'Create or update up to 100 customers matched by email or phone', long),
    route('POST', `${BASE}/merge`, 'merge-customers', 'Merge one customer into another'),
    route('GET', `${BASE}/{id}`, 'get-customer', 'Get a customer'),
    route('PATCH', `${BASE}/{id}`, 'update-customer', 'Update a customer'),
    route('DELETE', `${BASE}/{id}`, 'delete-customer', 'Delete a customer without conversations'),
    route('POST', `${BASE}/{id}/block`, 'block-customer', 'Block a customer'),
    route('POST', `${BASE}/{id}/unblock`, 'unblock-customer', 'Unblock a customer'),
  ],
} satisfies AreaWiring;
