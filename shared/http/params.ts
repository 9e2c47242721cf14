import * as z from 'zod';
import { OBJECT_ID } from '../ids';

/** A resource id: 24 hex characters. */
export const ObjectId = z.string().regex(OBJECT_ID, 'Must be a 24-character hex id');

/** The path of a route on one resource: its id (a malformed one answers that resource's 404). */
export const IdParams = z.object({ id: ObjectId });
