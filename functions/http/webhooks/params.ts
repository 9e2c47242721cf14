import { IdParams, ObjectId } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';

export const DeliveryParams = /* @__PURE__ */ built(() => IdParams.extend({ deliveryId: ObjectId }));
