import * as z from 'zod';
import { DateTime } from '../../../shared/domain/dates';
import { EVENT_RETENTION_DAYS, idTime, retentionStart } from '../../../shared/domain/events/log-range';
import { isValidPattern } from '../../../shared/events/types';
import { ListQuery } from '../../../shared/http/pagination';
import { ObjectId } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';

const patterns = (value: string) => value.split(',').map((p) => p.trim());

/** `types`: a comma-separated list of catalog names and wildcards (`inbox.*,crm.lead.*`). */
const Types = /* @__PURE__ */ built(() =>
  z
    .string()
    .max(2000)
    .refine((v) => patterns(v).length <= 50, 'At most 50 types')
    .refine((v) => patterns(v).every(isValidPattern), 'Each entry must be a catalog event type or a wildcard such as inbox.*')
    .describe('Comma-separated event types and wildcards (`inbox.*,crm.lead.*`); default every type the token may see'),
);

export const EventsQuery = /* @__PURE__ */ built(() =>
  z
    .strictObject({
      ...ListQuery.shape,
      types: Types.optional(),
      since: ObjectId.refine(
        (id) => idTime(id) >= retentionStart(new Date()),
        `Older than the ${EVENT_RETENTION_DAYS}-day log: list without since`,
      )
        .optional()
        .describe('Only the events after this event id, oldest first (catching up after a disconnect)'),
      from: DateTime.optional().describe('Only events that occurred at or after this time'),
      to: DateTime.optional().describe('Only events that occurred at or before this time'),
    })
    .refine((q) => !q.from || !q.to || Date.parse(q.from) <= Date.parse(q.to), { message: 'Must not be before from', path: ['to'] })
    .refine((q) => !q.since || !q.from, { message: 'since already says where the list starts: give since or from', path: ['from'] }),
);

export const typesOf = (types: string | undefined) => (types === undefined ? undefined : patterns(types));
