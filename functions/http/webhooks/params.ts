import * as z from 'zod';
import { OBJECT_ID } from '../../../shared/ids';

export const SubscriptionParams = z.object({ id: z.string().regex(OBJECT_ID) });
export const DeliveryParams = SubscriptionParams.extend({ deliveryId: z.string().regex(OBJECT_ID) });
