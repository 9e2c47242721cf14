import * as z from 'zod';
import { DateTime } from '../../../shared/domain/dates';
import { ListQuery } from '../../../shared/http/pagination';
import { Channel, Priority, Status } from '../../../shared/domain/inbox/conversation';
import { UNASSIGNED } from '../../../shared/domain/inbox/lists';
import { hasBody, IncomingSender, messageContent } from '../../../shared/domain/inbox/message';
import { ObjectId } from '../../../shared/http/params';
import { built } from '../../../shared/domain/built';
export { IdParams } from '../../../shared/http/params';

export const Subject = /* @__PURE__ */ built(() => z.string().trim().min(1).max(255).nullable());

export const CreateConversation = /* @__PURE__ */ built(() =>
  z.strictObject({
    customerId: ObjectId,
    /** Omitted: the account's kind when `channelId` names one (`email` for an email account), else `api`. */
    channel: Channel.optional(),
    channelId: ObjectId.optional(),
    subject: Subject.optional(),
    priority: Priority.optional(),
    assigneeId: ObjectId.nullable().optional(),
    status: z.enum(['open', 'pending']).optional(),
  }),
);

export const UpdateConversation = /* @__PURE__ */ built(() =>
  z.strictObject({ subject: Subject.optional(), priority: Priority.optional() }),
);

export const ConversationFilters = /* @__PURE__ */ built(() =>
  z.strictObject({
    ...ListQuery.shape,
    status: Status.optional(),
    assigneeId: z.union([ObjectId, z.literal(UNASSIGNED)]).optional(),
    channel: Channel.optional(),
    customerId: ObjectId.optional(),
    tagId: ObjectId.optional(),
  }),
);

export const Assign = /* @__PURE__ */ built(() => z.strictObject({ assigneeId: ObjectId }));

export const ChangeStatus = /* @__PURE__ */ built(() =>
  z.strictObject({
    status: Status,
    snoozedUntil: DateTime.optional(),
  }),
);

const withBody = <T extends { content?: string; attachments?: unknown[] }>(schema: z.ZodType<T>) =>
  schema.refine(hasBody, { message: 'Give content or at least one attachment', path: ['content'] });

export const CreateMessage = /* @__PURE__ */ built(() =>
  withBody(z.strictObject({ type: z.enum(['outgoing', 'note']).default('outgoing'), ...messageContent() })),
);

export const IncomingMessage = /* @__PURE__ */ built(() =>
  withBody(
    z.strictObject({
      channel: Channel,
      customer: IncomingSender,
      externalId: z.string().trim().min(1).max(200).optional(),
      conversationId: ObjectId.optional(),
      ...messageContent(),
    }),
  ),
);
