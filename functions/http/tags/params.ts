import * as z from 'zod';
import { OBJECT_ID } from '../../../shared/ids';

/** Path ids that are not object ids are unknown resources (404), like ids of another workspace. */
export const IdParams = z.object({ id: z.string().regex(OBJECT_ID) });
export const EntityTagParams = z.object({ id: z.string().regex(OBJECT_ID), tagId: z.string().regex(OBJECT_ID) });
