import { requireCustomer } from '../../../shared/data/customers';
import { timeline } from './timeline';

export const handler = timeline('customerId', requireCustomer);
