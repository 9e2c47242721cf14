import * as z from 'zod';
import { OBJECT_ID } from '../ids';
import { built } from '../domain/built';

/** A resource id: 24 hex characters. */
export const ObjectId = /* @__PURE__ */ built(() => z.string().regex(OBJECT_ID, 'Must be a 24-character hex id'));

/** The path of a route on one resource: its id (a malformed one answers that resource's 404). */
export const IdParams = /* @__PURE__ */ built(() => z.object({ id: ObjectId }));
