import { analytics } from './analytics';
import { channel, broadcast } from './channels';
import { customer, customerGuard } from './contacts';
import { file } from './files';
import { exportJob } from './exports';
import { importJob } from './imports';
import { activity, lead, listMembership, pipeline, task } from './crm';
import type { Entity } from './define';
import { conversation, conversationList, emailMessage, incomingGuard, message } from './inbox';
import { ai, article, searchIndex } from './knowledge';
import { realtimeConnection, realtimeTicket } from './realtime';
import { booking } from './scheduling';
import { tag, tagLink, tagName } from './tags';
import { member, memberEmail } from './team';
import { delivery, subscription } from './webhooks';
import { counter, idempotency, outboxEvent, rateLimit, token, workspace } from './workspace';
import { execution, triggerGuard, workflow } from './workflows';

/**
 * Every kind of item in the single table, by area. Each literal key segment is declared by exactly one
 * entity here, and code builds keys from `K` (so a segment that is not declared does not compile).
 */
export const entities = [
  workspace,
  counter,
  token,
  idempotency,
  rateLimit,
  outboxEvent,
  member,
  memberEmail,
  conversation,
  conversationList,
  message,
  incomingGuard,
  file,
  exportJob,
  importJob,
  emailMessage,
  customer,
  customerGuard,
  tag,
  tagName,
  tagLink,
  lead,
  pipeline,
  task,
  activity,
  listMembership,
  subscription,
  delivery,
  workflow,
  execution,
  triggerGuard,
  channel,
  broadcast,
  article,
  searchIndex,
  ai,
  analytics,
  booking,
  realtimeTicket,
  realtimeConnection,
] as const;

type Declared = (typeof entities)[number] extends Entity<infer P> ? P : never;

/** The key segments, each named by itself: `K.CONV` is `'CONV'`. */
export const K = Object.fromEntries(entities.flatMap((e) => e.prefixes.map((p) => [p, p]))) as { readonly [P in Declared]: P };
