import { timeline } from './timeline';

export const handler = timeline('customerId');
