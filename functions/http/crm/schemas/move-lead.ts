import * as z from 'zod';
import { ObjectId } from '../../../../shared/http/params';
import { Text } from './fields';
import { built } from '../../../../shared/domain/built';

export const MoveLead = /* @__PURE__ */ built(() =>
  z.strictObject({ stageId: ObjectId, pipelineId: ObjectId.optional(), lostReason: Text(500).optional() }),
);
