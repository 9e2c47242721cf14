import * as z from 'zod';
import { ObjectId } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

/** Path ids that are not object ids are unknown resources (404), like ids of another workspace. */
export const EntityTagParams = /* @__PURE__ */ built(() => z.object({ id: ObjectId, tagId: ObjectId }));
