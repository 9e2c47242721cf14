import * as z from 'zod';
import { ListQuery } from '../../../shared/http/pagination';
import { MemberStatus, Role } from '../../../shared/domain/auth/member';
import {
  BusinessHoursPatch,
  Locale,
  MAX_RETENTION_DAYS,
  MAX_STORAGE_QUOTA_BYTES,
  MIN_RETENTION_DAYS,
  TimeZone,
} from '../../../shared/domain/auth/workspace';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

/** Path ids that are not object ids are unknown resources (404), like ids of another workspace. */

export const UpdateWorkspace = /* @__PURE__ */ built(() =>
  z.strictObject({
    name: z.string().trim().min(1).max(200).optional(),
    timezone: TimeZone.optional(),
    locale: Locale.optional(),
    businessHours: BusinessHoursPatch.optional(),
    /** The bytes of ready files each mode may hold; lowering it below the usage refuses new uploads, never deletes files. */
    storageQuotaBytes: z.number().int().min(0).max(MAX_STORAGE_QUOTA_BYTES).optional(),
    /** Closed conversations older than this many days are deleted with their messages and files; null keeps them. */
    retention: z
      .strictObject({ closedConversationDays: z.number().int().min(MIN_RETENTION_DAYS).max(MAX_RETENTION_DAYS).nullable() })
      .optional(),
  }),
);

export const InviteMember = /* @__PURE__ */ built(() =>
  z.strictObject({
    email: z.email().max(254),
    name: z.string().trim().min(1).max(200).optional(),
    role: Role.default('agent'),
  }),
);
export const UpdateMember = /* @__PURE__ */ built(() => z.strictObject({ role: Role }));
export const MemberFilters = /* @__PURE__ */ built(() => z.strictObject({ ...ListQuery.shape, status: MemberStatus.optional() }));
