import { IdParams, ObjectId } from '../../../shared/http/params';

export const DeliveryParams = IdParams.extend({ deliveryId: ObjectId });
