import * as z from 'zod';
import { id } from './common';

/** What deleting a resource answers under the resource's name, e.g. `{subscription: {_id, deleted: true}}`. */
export const deleted = z.strictObject({ _id: id, deleted: z.literal(true) }).meta({ id: 'Deleted' });
