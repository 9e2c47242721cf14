import { areaRoute } from './inbox';
import type { HttpRoute } from './types';

const BASE = '/api/v1/contacts/customers';
const http = areaRoute('contacts');

export const contactsRoutes: HttpRoute[] = [
  http('POST', BASE, 'create-customer', 'Create a customer'),
  http('GET', BASE, 'list-customers', 'List customers; search by name, email or phone prefix, or filter by tag'),
  http('POST', `${BASE}/merge`, 'merge-customers', 'Merge one customer into another'),
  http('GET', `${BASE}/{id}`, 'get-customer', 'Get a customer'),
  http('PATCH', `${BASE}/{id}`, 'update-customer', 'Update a customer'),
  http('DELETE', `${BASE}/{id}`, 'delete-customer', 'Delete a customer without conversations'),
  http('POST', `${BASE}/{id}/block`, 'block-customer', 'Block a customer'),
  http('POST', `${BASE}/{id}/unblock`, 'unblock-customer', 'Unblock a customer'),
];
