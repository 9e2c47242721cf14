import * as z from 'zod';
import { ObjectId } from '../../../../shared/http/params';
import { Text } from './fields';

export const MoveLead = z.strictObject({ stageId: ObjectId, pipelineId: ObjectId.optional(), lostReason: Text(500).optional() });
