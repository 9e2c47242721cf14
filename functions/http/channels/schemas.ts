import * as z from 'zod';
import { OBJECT_ID } from '../../../shared/ids';

export const ChannelParams = z.object({ id: z.string().regex(OBJECT_ID, 'Must be a 24-character hex id') });
