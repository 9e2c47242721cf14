import type * as z from 'zod';
import type { article, passage, settings as aiSettings } from '../../../shared/views/ai';
import type { callerToken, createdToken, workspace } from '../../../shared/views/auth';
import type { member } from '../../../shared/views/members';
import type { campaign, recipient } from '../../../shared/views/broadcasts';
import type { account, accountStatus } from '../../../shared/views/channels';
import type { pagination } from '../../../shared/views/common';
import type { contact } from '../../../shared/views/contacts';
import type { activity, lead, pipeline, task } from '../../../shared/views/crm';
import type { conversation, message } from '../../../shared/views/inbox';
import type { file, upload } from '../../../shared/views/files';
import type { availability, booking } from '../../../shared/views/scheduling';
import type { tag } from '../../../shared/views/tags';
import type { attempt, attemptDetail, deliverySummary, health, recovery, subscription } from '../../../shared/views/webhooks';
import type { definition, execution, step } from '../../../shared/views/workflows';

/**
 * One coherent fictional workspace, Northwind Coffee, that every example in the OpenAPI document is drawn
 * from: Maya Chen writes in about a late order, Sam Rivera (an agent) answers, and her wholesale lead sits
 * in the Wholesale pipeline. Each id names the same thing wherever it appears.
 */
type View<S extends z.ZodType> = z.output<S>;

export const ids = {
  workspace: '66a1f0c2b9e84d7a3c5e1f20',
  owner: '66a1f0c2b9e84d7a3c5e1f21',
  agent: '66a1f0c2b9e84d7a3c5e1f22',
  token: '66a1f0c2b9e84d7a3c5e1f23',
  customer: '66a1f1d09c3a4b5e6f708192',
  otherCustomer: '66a1f1d09c3a4b5e6f708193',
  conversation: '66a2035e7d1c4f2a9b3e5d10',
  incoming: '66a2035e7d1c4f2a9b3e5d11',
  reply: '66a2035e7d1c4f2a9b3e5d12',
  tag: '66a0ff41c7b24e1d8a9f3c01',
  pipeline: '66a0ff41c7b24e1d8a9f3c10',
  stageNew: '66a0ff41c7b24e1d8a9f3c11',
  stageProposal: '66a0ff41c7b24e1d8a9f3c12',
  stageWon: '66a0ff41c7b24e1d8a9f3c13',
  stageLost: '66a0ff41c7b24e1d8a9f3c14',
  lead: '66a2101b3e4f5a6b7c8d9e01',
  task: '66a2101b3e4f5a6b7c8d9e02',
  activity: '66a2101b3e4f5a6b7c8d9e03',
  channel: '66a0fe12a3b4c5d6e7f80911',
  subscription: '66a0fe12a3b4c5d6e7f80920',
  event: '66a2035e7d1c4f2a9b3e5d20',
  delivery: '66a2035e7d1c4f2a9b3e5d21',
  workflow: '66a0fe12a3b4c5d6e7f80930',
  execution: '66a2035f8e2d4a1b9c3f6e01',
  article: '66a0fe12a3b4c5d6e7f80940',
  broadcast: '66a0fe12a3b4c5d6e7f80950',
  booking: '66a2101b3e4f5a6b7c8d9e10',
  file: '66a2035e7d1c4f2a9b3e5d30',
} as const;

/** The moments of the story, in order (UTC). */
export const at = {
  created: '2026-03-02T09:00:00.000Z',
  received: '2026-03-10T08:14:05.000Z',
  replied: '2026-03-10T08:21:40.000Z',
  updated: '2026-03-10T08:21:40.000Z',
  due: '2026-03-12T15:00:00.000Z',
  meeting: '2026-03-13T10:00:00.000Z',
  meetingEnd: '2026-03-13T10:30:00.000Z',
} as const;

const workspaceView: View<typeof workspace> = {
  _id: ids.workspace,
  name: 'Northwind Coffee',
  timezone: 'Europe/Amsterdam',
  locale: 'en-GB',
  businessHours: {
    monday: [{ start: '09:00', end: '17:30' }],
    tuesday: [{ start: '09:00', end: '17:30' }],
    wednesday: [{ start: '09:00', end: '17:30' }],
    thursday: [{ start: '09:00', end: '17:30' }],
    friday: [{ start: '09:00', end: '16:00' }],
    saturday: [],
    sunday: [],
  },
  storageQuotaBytes: 10737418240,
  retention: { closedConversationDays: 365 },
  createdAt: at.created,
  updatedAt: at.created,
};

const memberView: View<typeof member> = {
  _id: ids.agent,
  email: 'sam.rivera@northwind.example',
  name: 'Sam Rivera',
  role: 'agent',
  status: 'active',
  invitedAt: at.created,
  joinedAt: '2026-03-02T09:12:30.000Z',
  removedAt: null,
  createdAt: at.created,
  updatedAt: '2026-03-02T09:12:30.000Z',
};

const apiToken: Omit<View<typeof createdToken>, 'token'> = {
  _id: ids.token,
  name: 'Helpdesk integration',
  prefix: 'sk_live_4eC39HqL',
  environment: 'live',
  scopes: ['inbox:read', 'inbox:write', 'contacts:read'],
  workspaceIds: [ids.workspace],
  createdAt: at.created,
  status: 'active',
  livemode: true,
};

const caller: View<typeof callerToken> = { ...apiToken, expiresAt: null };

const customer: View<typeof contact> = {
  _id: ids.customer,
  name: 'Maya Chen',
  email: 'maya.chen@bluebird.example',
  phone: '+31612345678',
  externalId: 'shop-cust-10482',
  attributes: { plan: 'wholesale', city: 'Utrecht', ordersPlaced: 14 },
  identities: [{ channel: 'email', identifier: 'maya.chen@bluebird.example' }],
  tagIds: [ids.tag],
  blocked: false,
  lastActivityAt: at.received,
  createdAt: at.created,
  updatedAt: at.received,
};

const conversationView: View<typeof conversation> = {
  _id: ids.conversation,
  number: 1042,
  customerId: ids.customer,
  channel: 'email',
  channelId: ids.channel,
  status: 'open',
  snoozedUntil: null,
  assigneeId: ids.agent,
  priority: 'high',
  subject: 'Order #4521 has not arrived',
  lastMessageAt: at.replied,
  unreadCount: 0,
  messageCount: 2,
  tagIds: [ids.tag],
  createdAt: at.received,
  updatedAt: at.replied,
};

const messageView: View<typeof message> = {
  _id: ids.reply,
  conversationId: ids.conversation,
  type: 'outgoing',
  private: false,
  content: 'Hi Maya, your order left our roastery this morning; tracking code NL-88213. Sorry for the wait!',
  attachments: [],
  deliveryStatus: 'delivered',
  failureReason: null,
  author: { type: 'token', id: ids.token },
  externalId: null,
  createdAt: at.replied,
};

/** The photo of the damaged bag Maya sent with her email, verified and held by her conversation. */
const fileView: View<typeof file> = {
  _id: ids.file,
  name: 'damaged-bag.jpg',
  contentType: 'image/jpeg',
  size: 184_320,
  status: 'ready',
  rejectedReason: null,
  conversationId: ids.conversation,
  createdAt: at.received,
  updatedAt: at.received,
};

const uploadView: View<typeof upload> = {
  method: 'POST',
  url: 'https://parley-files.s3.eu-west-1.amazonaws.com/',
  fields: {
    key: `${ids.workspace}/${ids.file}`,
    'Content-Type': 'image/jpeg',
    bucket: 'parley-files',
    'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
    'X-Amz-Credential': 'ASIAEXAMPLE/20260310/eu-west-1/s3/aws4_request',
    'X-Amz-Date': '20260310T081405Z',
    Policy: 'eyJleHBpcmF0aW9uIjoiMjAyNi0wMy0xMFQwODoyOTowNVoiLCJjb25kaXRpb25zIjpbXX0=',
    'X-Amz-Signature': '6f1c0b9f3f2d8e7a5c4b3a291807f6e5d4c3b2a1908f7e6d5c4b3a2918070f6e',
  },
  expiresAt: '2026-03-10T08:29:05.000Z',
};

/** Maya's question, as her email arrived. */
export const incomingMessage: View<typeof message> = {
  ...messageView,
  _id: ids.incoming,
  type: 'incoming',
  content: 'Hello, my order #4521 was due on Friday and has still not arrived. Can you check where it is?',
  deliveryStatus: 'received',
  author: { type: 'customer', id: ids.customer },
  externalId: '<CAF8kq2x7@mail.bluebird.example>',
  createdAt: at.received,
};

const tagView: View<typeof tag> = {
  _id: ids.tag,
  name: 'Wholesale',
  color: '#2e7d32',
  description: 'Cafés and shops that buy beans in bulk',
  createdAt: at.created,
  updatedAt: at.created,
};

const pipelineView: View<typeof pipeline> = {
  _id: ids.pipeline,
  name: 'Wholesale',
  stages: [
    { _id: ids.stageNew, name: 'New enquiry', kind: 'open', probability: 0.1, position: 0 },
    { _id: ids.stageProposal, name: 'Proposal sent', kind: 'open', probability: 0.5, position: 1 },
    { _id: ids.stageWon, name: 'Won', kind: 'won', probability: 1, position: 2 },
    { _id: ids.stageLost, name: 'Lost', kind: 'lost', probability: 0, position: 3 },
  ],
  createdAt: at.created,
  updatedAt: at.created,
};

const leadView: View<typeof lead> = {
  _id: ids.lead,
  title: 'Bluebird Café: monthly espresso blend',
  pipelineId: ids.pipeline,
  stageId: ids.stageProposal,
  status: 'open',
  value: { amount: 240000, currency: 'EUR' },
  customerId: ids.customer,
  conversationId: ids.conversation,
  assigneeId: ids.agent,
  source: 'email',
  expectedCloseDate: '2026-03-31',
  lostReason: null,
  tagIds: [ids.tag],
  attributes: { bagsPerMonth: 40 },
  stageEnteredAt: at.replied,
  closedAt: null,
  createdAt: at.received,
  updatedAt: at.replied,
};

const taskView: View<typeof task> = {
  _id: ids.task,
  title: 'Send Bluebird the wholesale price list',
  description: 'Include the 5 kg bag options.',
  status: 'open',
  priority: 'high',
  dueAt: at.due,
  assigneeId: ids.agent,
  leadId: ids.lead,
  customerId: ids.customer,
  conversationId: ids.conversation,
  completedAt: null,
  createdAt: at.replied,
  updatedAt: at.replied,
};

const activityView: View<typeof activity> = {
  _id: ids.activity,
  type: 'call',
  leadId: ids.lead,
  customerId: ids.customer,
  subject: 'Intro call with Maya',
  body: 'Wants 40 bags a month from April; asked for a tasting box.',
  occurredAt: '2026-03-11T14:00:00.000Z',
  durationSeconds: 900,
  details: null,
  createdAt: '2026-03-11T14:20:00.000Z',
};

const channelView: View<typeof account> = {
  _id: ids.channel,
  type: 'email',
  name: 'Support inbox',
  status: 'connected',
  config: {
    from: 'support@northwind.example',
    host: 'smtp.northwind.example',
    port: 587,
    secure: false,
    username: 'support@northwind.example',
  },
  ratePerSecond: 20,
  secretNames: ['smtpPassword'],
  lastError: null,
  createdAt: at.created,
  updatedAt: at.created,
};

const channelStatus: View<typeof accountStatus> = {
  channelId: ids.channel,
  type: 'email',
  status: 'connected',
  canSend: true,
  lastError: null,
  updatedAt: at.created,
};

const subscriptionView: View<typeof subscription> = {
  _id: ids.subscription,
  workspaceId: ids.workspace,
  livemode: true,
  url: 'https://hooks.bluebird.example/parley',
  events: ['inbox.conversation.*', 'crm.lead.won'],
  active: true,
  consecutiveFailures: 0,
  activatedAt: at.created,
  createdAt: at.created,
  updatedAt: at.created,
};

const attemptView: View<typeof attempt> = {
  attemptNumber: 1,
  status: 'success',
  httpStatus: 200,
  latency: 142,
  at: '2026-03-10T08:14:06.000Z',
};

const deliveryView: View<typeof deliverySummary> = {
  deliveryId: ids.delivery,
  subscriptionId: ids.subscription,
  eventId: ids.event,
  eventType: 'inbox.conversation.created',
  status: 'success',
  httpStatus: 200,
  latency: 142,
  attemptNumber: 1,
  nextRetryAt: null,
  nextAttemptAt: null,
  failureReason: null,
  createdAt: at.received,
  updatedAt: '2026-03-10T08:14:06.000Z',
};

const attemptDetailView: View<typeof attemptDetail> = {
  ...attemptView,
  request: {
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Parley-Webhooks/1.0',
      'webhook-id': ids.event,
      'webhook-timestamp': '1773130445',
    },
    body: `{"id":"${ids.event}","type":"inbox.conversation.created","data":{"conversation":{"_id":"${ids.conversation}","status":"open"}}}`,
    bodyTruncated: false,
  },
  response: { body: '{"received":true}', bodyTruncated: false },
};

const healthView: View<typeof health> = {
  subscriptionId: ids.subscription,
  active: true,
  consecutiveFailures: 0,
  deactivateAfter: 100,
  deactivatedAt: null,
  deactivationReason: null,
  recent: { deliveries: 100, succeeded: 97, failed: 2, inProgress: 1, successRate: 0.98 },
};

const recoveryView: View<typeof recovery> = {
  _id: '66a2ff00b1c2d3e4f5a6b7c8',
  since: at.created,
  until: '2026-03-11T00:00:00.000Z',
  deliveries: 3,
};

/** The Retry node here allows 2 retries after the first try: up to 3 tries of the request. */
const workflowView: View<typeof definition> = {
  _id: ids.workflow,
  name: 'Notify the roastery of urgent conversations',
  description: 'Posts urgent conversations to the roastery’s order system.',
  active: true,
  version: 2,
  trigger: { type: 'event', eventTypes: ['inbox.conversation.priority_changed'], filter: { 'conversation.priority': 'urgent' } },
  nodes: [
    { id: 'again', type: 'retry', name: 'Retry twice', config: { maxAttempts: 2, backoff: 'exponential', baseDelaySeconds: 30 } },
    {
      id: 'post',
      type: 'http_request',
      name: 'Tell the roastery',
      config: { method: 'POST', url: 'https://orders.northwind.example/urgent', body: { conversation: '{{trigger.conversation._id}}' } },
    },
    { id: 'note', type: 'add_note', config: { conversationId: '{{trigger.conversation._id}}', content: 'The roastery has been told.' } },
  ],
  edges: [
    { from: 'again', to: 'post', branch: 'body' },
    { from: 'again', to: 'note', branch: 'next' },
  ],
  createdAt: at.created,
  updatedAt: at.received,
};

const executionView: View<typeof execution> = {
  _id: ids.execution,
  workflowId: ids.workflow,
  workflowVersion: 2,
  status: 'completed',
  trigger: { type: 'event', eventId: ids.event },
  depth: 1,
  startedAt: '2026-03-10T08:30:00.000Z',
  endedAt: '2026-03-10T08:30:31.000Z',
};

const stepView: View<typeof step> = {
  nodeId: 'post',
  nodeType: 'http_request',
  attempt: 2,
  status: 'succeeded',
  startedAt: '2026-03-10T08:30:30.000Z',
  endedAt: '2026-03-10T08:30:31.000Z',
  delayBeforeMs: 30000,
  output: { status: 202, body: { queued: true } },
};

const articleView: View<typeof article> = {
  _id: ids.article,
  title: 'When will my order arrive?',
  body: 'Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.',
  tags: ['shipping'],
  published: true,
  locale: 'en',
  createdAt: at.created,
  updatedAt: at.created,
};

export const passageView: View<typeof passage> = {
  articleId: ids.article,
  title: articleView.title,
  text: 'Orders placed before 14:00 leave the roastery the same day.',
  locale: 'en',
  score: 4.2,
  confidence: 0.82,
};

const aiSettingsView: View<typeof aiSettings> = {
  enabled: true,
  autoReply: 'suggest',
  confidenceThreshold: 0.75,
  handoffKeywords: ['refund', 'complaint'],
  tone: 'friendly',
  language: 'en',
  provider: 'extractive',
  updatedAt: at.created,
};

const broadcastView: View<typeof campaign> = {
  _id: ids.broadcast,
  name: 'Spring single-origin launch',
  channelId: ids.channel,
  audience: { tagIds: [ids.tag] },
  content: 'Our Ethiopian Guji is back: order before Friday for first-roast delivery.',
  subject: 'New: Ethiopia Guji',
  status: 'sent',
  scheduledAt: '2026-03-09T08:00:00.000Z',
  startedAt: '2026-03-09T08:00:02.000Z',
  completedAt: '2026-03-09T08:01:10.000Z',
  failureReason: null,
  stats: { recipients: 120, sent: 118, delivered: 115, read: 64, failed: 2, skipped: 0, cancelled: 0 },
  createdAt: at.created,
  updatedAt: '2026-03-09T08:01:10.000Z',
};

const recipientView: View<typeof recipient> = {
  broadcastId: ids.broadcast,
  customerId: ids.customer,
  status: 'delivered',
  reason: null,
  sentAt: '2026-03-09T08:00:05.000Z',
  updatedAt: '2026-03-09T08:00:09.000Z',
};

export const bookingView: View<typeof booking> = {
  _id: ids.booking,
  title: 'Tasting session with Bluebird Café',
  customerId: ids.customer,
  assigneeId: ids.agent,
  startAt: at.meeting,
  endAt: at.meetingEnd,
  timezone: 'Europe/Amsterdam',
  location: 'Northwind roastery, Utrecht',
  notes: 'Bring the Guji and the house espresso.',
  status: 'confirmed',
  cancellationReason: null,
  createdAt: at.replied,
  updatedAt: at.replied,
};

const availabilityView: View<typeof availability> = {
  assigneeId: ids.agent,
  timezone: 'Europe/Amsterdam',
  durationMinutes: 30,
  from: '2026-03-13T08:00:00.000Z',
  to: '2026-03-13T16:30:00.000Z',
  slots: [
    { startAt: '2026-03-13T08:00:00.000Z', endAt: '2026-03-13T08:30:00.000Z' },
    { startAt: '2026-03-13T10:30:00.000Z', endAt: '2026-03-13T11:00:00.000Z' },
  ],
};

const paginationView: View<typeof pagination> = { total: 1, page: 1, limit: 20, pages: 1, hasMore: false, nextCursor: null };

/**
 * Each view of the document (`components/schemas`) as the workspace above shows it. Views made of others
 * (a message with its conversation) are composed from these by the sampler; the ones that only add fields
 * to a view (`CreatedApiToken`) are written here.
 */
export const viewFixtures: Record<string, unknown> = {
  Workspace: workspaceView,
  TokenWorkspace: { ...workspaceView, livemode: true },
  Member: memberView,
  ApiToken: apiToken,
  CreatedApiToken: { ...apiToken, token: 'sk_live_4eC39HqLyjWDarjtT1zdp7dcGb2uXnA5kVmPq8RsT0vW3xYz' },
  CallerToken: caller,
  Token: apiToken,
  Customer: customer,
  Conversation: conversationView,
  Message: messageView,
  File: fileView,
  FileWithDownload: {
    ...fileView,
    download: {
      url: `https://d1a2b3c4d5e6f7.cloudfront.net/${ids.workspace}/${ids.file}?Expires=1773131200&Signature=Nq3v~Xb0kUe7s2Yp9wLr-Ht5mFa8cZd1Jg4Ko6Qi0Ux~Ve3Rb7Wn2Ty9Ps5Lm8Hc1Fd4Gk6Ja0Zq3Xw7Es2Bv5Nr9Uy_&Key-Pair-Id=K2JCJMDEHXQW5F`,
      expiresAt: '2026-03-10T08:26:40.000Z',
    },
  },
  FileUpload: uploadView,
  Attachment: { fileId: ids.file, name: fileView.name, contentType: fileView.contentType, size: fileView.size },
  LegacyAttachment: {
    url: 'https://files.example.com/2025/terms.pdf',
    name: 'terms.pdf',
    contentType: 'application/pdf',
    size: 48213,
    legacy: true,
  },
  Tag: tagView,
  ReceivedMessage: { message: incomingMessage, conversation: conversationView, customer, duplicate: false },
  ChannelInbound: { type: 'message', message: incomingMessage, conversation: conversationView, duplicate: false },
  DeletedTag: { ...tagView, detached: { conversation: 12, customer: 31, lead: 4 }, complete: true },
  CustomerMerge: { customer, mergedCustomerId: ids.otherCustomer, conversationsMoved: 1, leadsMoved: 0 },
  TagWithCounts: { ...tagView, counts: { conversation: 12, customer: 31, lead: 4 } },
  Pipeline: pipelineView,
  Stage: pipelineView.stages[1],
  Lead: leadView,
  Task: taskView,
  Activity: activityView,
  StageStay: { pipelineId: ids.pipeline, stageId: ids.stageNew, enteredAt: at.received, exitedAt: at.replied, durationSeconds: 455 },
  ChannelAccount: channelView,
  ChannelAccountWithSecret: { ...channelView, signingSecret: 'whsec_c2VjcmV0LWZvci1ub3J0aHdpbmQtc3VwcG9ydA==' },
  ChannelAccountStatus: channelStatus,
  WebhookSubscription: subscriptionView,
  WebhookSubscriptionWithSecret: { ...subscriptionView, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
  WebhookAttempt: attemptView,
  WebhookDeliverySummary: deliveryView,
  WebhookDelivery: { ...deliveryView, attempts: [attemptView] },
  WebhookAttemptDetail: attemptDetailView,
  WebhookDeliveryDetail: { ...deliveryView, attempts: [attemptDetailView] },
  WebhookEndpointHealth: healthView,
  WebhookRecovery: recoveryView,
  Workflow: workflowView,
  WorkflowExecution: executionView,
  WorkflowStep: stepView,
  WorkflowExecutionWithSteps: {
    ...executionView,
    steps: [
      {
        ...stepView,
        attempt: 1,
        status: 'failed',
        output: undefined,
        error: { message: 'HTTP 503 from orders.northwind.example', category: 'other' },
        handledBy: 'again',
        startedAt: executionView.startedAt,
        endedAt: '2026-03-10T08:30:00.400Z',
        delayBeforeMs: 0,
      },
      stepView,
    ],
  },
  WorkflowNotificationSecret: { secret: 'whsec_3q2+7w2Fb0z3kq1jVwYt0r8G5m1xH6cE' },
  Article: articleView,
  ArticleSummary: articleView,
  Passage: passageView,
  AiSettings: aiSettingsView,
  Broadcast: broadcastView,
  BroadcastRecipient: recipientView,
  Booking: bookingView,
  Availability: availabilityView,
  Pagination: paginationView,
};
