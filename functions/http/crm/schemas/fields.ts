import * as z from 'zod';
import { UNASSIGNED } from '../../../../shared/domain/lists';
import { ObjectId } from '../../../../shared/http/params';
import { built } from '../../../../shared/domain/built';

/** The fields the CRM's request bodies share; each route's schemas are in the file of its area, so a route builds only those. */
export const Name = /* @__PURE__ */ built(() => z.string().trim().min(1).max(200));
export const Text = (max: number) => z.string().trim().min(1).max(max);
export const Assignee = /* @__PURE__ */ built(() => z.union([ObjectId, z.literal(UNASSIGNED)]));
