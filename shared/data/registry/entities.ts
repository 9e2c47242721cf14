import { analyticsAgentDay, analyticsDay, countedEvent, firstReply } from './analytics';
import { broadcast, broadcastRecipient, broadcastStats, channel, channelRate, channelSend, sandboxSend } from './channels';
import { customer, customerConversations, customerGuard } from './contacts';
import { file } from './files';
import { exportJob } from './exports';
import { erasedCsv, erasure, erasureClaim } from './erasures';
import { importFailure, importJob, importRow } from './imports';
import { activity, lead, listMembership, pipeline, pipelineCounts, stageCounts, stageStay, task } from './crm';
import {
  closedIndexBackfill,
  conversation,
  conversationList,
  conversationPurge,
  emailMessage,
  emailThread,
  incomingGuard,
  message,
} from './inbox';
import { aiAnswer, aiSettings, article, articleSummary, searchChange, searchDoc, searchHead } from './knowledge';
import { realtimeConnection, realtimePointer, realtimePresence, realtimeTicket } from './realtime';
import { booking, slotClaim } from './scheduling';
import { tag, tagLink, tagName } from './tags';
import { member, memberEmail } from './team';
import { delivery, responseBody, subscription, subscriptionCount, subscriptionUrlLock } from './webhooks';
import { eventBody, idempotency, idempotencyBody, outboxEvent, rateLimit, token, tokenBinding, tokenPointer } from './requests';
import { counter, sequence, workspace } from './workspace';
import {
  eventGuard,
  execution,
  executionCount,
  executionEffect,
  executionIndex,
  executionStep,
  notificationSecret,
  scheduleGuard,
  workflow,
  workflowTrigger,
  workflowVersion,
} from './workflows';

/**
 * Every kind of item in the single table, by area. Each literal key segment is declared by exactly one
 * entity here, and code builds keys from its declaration or from `K` (so a segment that is not declared does not compile).
 */
export const entities = [
  workspace,
  counter,
  sequence,
  token,
  tokenPointer,
  tokenBinding,
  idempotency,
  idempotencyBody,
  rateLimit,
  outboxEvent,
  eventBody,
  member,
  memberEmail,
  conversation,
  conversationList,
  conversationPurge,
  closedIndexBackfill,
  message,
  emailThread,
  incomingGuard,
  file,
  exportJob,
  importJob,
  importRow,
  importFailure,
  erasure,
  erasureClaim,
  erasedCsv,
  emailMessage,
  customer,
  customerGuard,
  customerConversations,
  tag,
  tagName,
  tagLink,
  lead,
  stageStay,
  pipeline,
  pipelineCounts,
  stageCounts,
  task,
  activity,
  listMembership,
  subscription,
  subscriptionUrlLock,
  subscriptionCount,
  delivery,
  responseBody,
  workflow,
  workflowVersion,
  workflowTrigger,
  notificationSecret,
  execution,
  executionIndex,
  executionStep,
  executionEffect,
  executionCount,
  eventGuard,
  scheduleGuard,
  channel,
  channelRate,
  channelSend,
  sandboxSend,
  broadcast,
  broadcastStats,
  broadcastRecipient,
  article,
  articleSummary,
  searchHead,
  searchDoc,
  searchChange,
  aiSettings,
  aiAnswer,
  analyticsDay,
  analyticsAgentDay,
  countedEvent,
  firstReply,
  booking,
  slotClaim,
  realtimeTicket,
  realtimeConnection,
  realtimePointer,
  realtimePresence,
] as const;
