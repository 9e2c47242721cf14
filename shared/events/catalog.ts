import * as z from 'zod';
import { article } from '../views/ai';
import { workspace } from '../views/auth';
import { member } from '../views/members';
import { token } from '../views/tokens';
import { campaign, recipient } from '../views/broadcasts';
import { account } from '../views/channels';
import { contact } from '../views/contacts';
import { activity, lead, pipeline, task } from '../views/crm';
import { conversation, message } from '../views/inbox';
import { file } from '../views/files';
import { importJob } from '../views/imports';
import { booking } from '../views/scheduling';
import { tag } from '../views/tags';
import { id } from '../views/common';
import { subscription } from '../views/webhooks';
import { definition, execution, step } from '../views/workflows';
import { eventTypeList, type PayloadName } from './types';
import { built } from '../domain/built';

const tags = /* @__PURE__ */ built(() => z.array(tag));

/** The schema of each event type's `data`, by the name `types.ts` gives it. */
const payloads: Record<PayloadName, z.ZodType> = {
  conversation: z.strictObject({ conversation }),
  conversationTags: z.strictObject({ conversation, tags }),
  messageConversation: z.strictObject({ message, conversation }),
  note: z.strictObject({ note: message, conversation }),
  file: z.strictObject({ file }),
  contact: z.strictObject({ contact }),
  erasedContact: z.strictObject({ contact: z.strictObject({ _id: id }) }),
  mergedContact: z.strictObject({ contact, mergedContact: contact }),
  contactTags: z.strictObject({ contact, tags }),
  importJob: z.strictObject({ import: importJob }),
  workspace: z.strictObject({ workspace }),
  token: z.strictObject({ token }),
  member: z.strictObject({ member }),
  lead: z.strictObject({ lead }),
  leadTags: z.strictObject({ lead, tags }),
  pipeline: z.strictObject({ pipeline }),
  task: z.strictObject({ task }),
  activity: z.strictObject({ activity }),
  account: z.strictObject({ account }),
  deliveredMessage: z.strictObject({ message, conversation: z.union([conversation, z.null()]) }),
  definition: z.strictObject({ definition }),
  execution: z.strictObject({ execution }),
  stepExecution: z.strictObject({ step, execution }),
  article: z.strictObject({ article }),
  campaign: z.strictObject({ campaign }),
  recipient: z.strictObject({ recipient }),
  bookingReminder: z.strictObject({ booking, reminder: z.enum(['24h', '1h']) }),
  booking: z.strictObject({ booking }),
};

/** Every event type of `types.ts` with the schema of its `data`: what the docs and the event-types route show. */
export const eventCatalog = eventTypeList.map(({ payload, ...e }) => ({ ...e, data: payloads[payload] }));

/** The test event of `POST …/webhooks/{id}/test`: sent to that one subscription, never subscribable. */
export const pingEvent = {
  type: 'webhook.ping',
  status: 'available',
  description: 'A test event sent by POST /integrations/webhooks/{id}/test to that subscription only, whatever its `events`.',
  data: z.strictObject({ subscription }),
} as const;
