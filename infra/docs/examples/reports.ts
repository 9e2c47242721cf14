import type * as z from 'zod';
import type { suggestion } from '../../../shared/views/ai';
import type {
  agentActivity,
  conversationActivity,
  overview,
  pipelineActivity,
  range,
  webhookActivity,
} from '../../../shared/views/analytics';
import type { contact, customerBatch } from '../../../shared/views/contacts';
import type { exportWithDownload } from '../../../shared/views/exports';
import type { erasure } from '../../../shared/views/erasures';
import type { importJob, importWithUpload } from '../../../shared/views/imports';
import type { summary } from '../../../shared/views/crm';
import type { bulkTagging } from '../../../shared/views/tags';
import type { eventType } from '../../../shared/views/webhooks';
import { ids, passageView, viewFixtures } from './fixtures';

/** The workspace's reports and computed answers, for the week of the story (9–15 March 2026). */

const week = { start: '2026-03-09', end: '2026-03-15' };
const durations = { median: 420, p90: 3600, count: 38 };

const rangeView: z.output<typeof range> = { from: week.start, to: week.end, interval: 'week', timezone: 'Europe/Amsterdam' };

const overviewView: z.output<typeof overview> = {
  conversations: { opened: 41, closed: 37 },
  messages: { incoming: 96, outgoing: 88 },
  firstResponseSeconds: { median: 420, p90: 3600 },
  resolutionSeconds: { median: 14400, p90: 86400 },
  leads: { created: 6, won: 2, lost: 1, wonValue: { EUR: 480000 } },
  webhooks: { deliveries: 212, succeeded: 209, successRate: 0.986 },
};

const conversationFigures = {
  opened: 41,
  closed: 37,
  incoming: 96,
  outgoing: 88,
  aiOutgoing: 12,
  firstResponseSeconds: durations,
  resolutionSeconds: { ...durations, median: 14400, p90: 86400, count: 37 },
};
const conversationsView: z.output<typeof conversationActivity> = { ...conversationFigures, series: [{ ...week, ...conversationFigures }] };

const agentView: z.output<typeof agentActivity> = {
  assigneeId: ids.agent,
  conversationsAssigned: 24,
  conversationsClosed: 22,
  messagesSent: 61,
  firstResponseSeconds: { ...durations, count: 24 },
  resolutionSeconds: { median: 12600, p90: 72000, count: 22 },
};

const leadFigures = { created: 6, won: 2, lost: 1, wonValue: { EUR: 480000 }, winRate: 0.667 };
const pipelineView: z.output<typeof pipelineActivity> = {
  ...leadFigures,
  series: [{ ...week, ...leadFigures }],
  pipelines: [
    {
      pipelineId: ids.pipeline,
      name: 'Wholesale',
      stages: [
        { stageId: ids.stageNew, name: 'New enquiry', kind: 'open', entered: 6, conversionToNext: 0.667 },
        { stageId: ids.stageProposal, name: 'Proposal sent', kind: 'open', entered: 4, conversionToNext: 0.5 },
        { stageId: ids.stageWon, name: 'Won', kind: 'won', entered: 2, conversionToNext: null },
        { stageId: ids.stageLost, name: 'Lost', kind: 'lost', entered: 1, conversionToNext: null },
      ],
    },
  ],
};

const webhookFigures = {
  deliveries: 212,
  succeeded: 209,
  failed: 3,
  successRate: 0.986,
  attempts: 218,
  latencyMs: { median: 140, p90: 480, count: 218 },
};
const webhooksView: z.output<typeof webhookActivity> = { ...webhookFigures, series: [{ ...week, ...webhookFigures }] };

const values = [{ currency: 'EUR', amount: 240000, weightedAmount: 120000 }];
const summaryView: z.output<typeof summary> = {
  pipelineId: ids.pipeline,
  stages: [
    { stageId: ids.stageNew, name: 'New enquiry', kind: 'open', probability: 0.1, count: 0, values: [] },
    { stageId: ids.stageProposal, name: 'Proposal sent', kind: 'open', probability: 0.5, count: 1, values },
  ],
  count: 1,
  values,
};

const suggestionView: z.output<typeof suggestion> = {
  question: 'When will my order #4521 arrive?',
  passages: [passageView],
  confidence: 0.82,
  reply: 'Orders placed before 14:00 leave the roastery the same day and arrive in 1–2 working days in the Netherlands.',
  decision: { action: 'reply' },
  messageIds: [ids.incoming],
};

const eventTypeView: z.output<typeof eventType> = {
  type: 'crm.lead.won',
  category: 'crm',
  readScope: 'crm:read',
  status: 'available',
  subscribable: true,
  description: 'A lead entered its pipeline’s won stage (after its `stage_changed`).',
  dataSchema: {
    type: 'object',
    properties: { lead: { $ref: '#/components/schemas/Lead' } },
    required: ['lead'],
    additionalProperties: false,
  },
};

const bulkView: z.output<typeof bulkTagging> = {
  action: 'tag',
  entityType: 'conversation',
  tagIds: [ids.tag],
  changed: [ids.conversation],
  unchanged: [],
};

const batchView: z.output<typeof customerBatch> = {
  results: [
    { index: 0, status: 'updated', customer: viewFixtures.Customer as z.output<typeof contact> },
    {
      index: 1,
      status: 'error',
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Validation failed: email: The same email as inputs[0]',
        details: { errors: [{ path: 'email', message: 'The same email as inputs[0]' }] },
      },
    },
  ],
  summary: { created: 0, updated: 1, unchanged: 0, errors: 1 },
};

const exportView: z.output<typeof exportWithDownload> = {
  _id: '66a20f1c7d1c4f2a9b3e5e01',
  kind: 'customers',
  status: 'completed',
  filter: { tagId: ids.tag },
  rows: 31,
  error: null,
  createdAt: '2026-03-10T08:21:40.000Z',
  completedAt: '2026-03-10T08:21:43.000Z',
  download: {
    url: `https://parley-files.s3.eu-west-1.amazonaws.com/bulk/exports/${ids.workspace}/66a20f1c7d1c4f2a9b3e5e01.csv?X-Amz-Expires=300&X-Amz-Signature=4b1d9e0c2a7f3e8d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d`,
    expiresAt: '2026-03-10T08:26:43.000Z',
  },
};

const importView: z.output<typeof importJob> = {
  _id: '66a20f1c7d1c4f2a9b3e5e02',
  kind: 'customers',
  status: 'completed',
  idProperty: 'email',
  pipelineId: null,
  columns: { 'E-mail': 'email', Company: 'attributes.company', Notes: null },
  counts: { rows: 1200, created: 1150, updated: 30, unchanged: 12, failed: 8 },
  error: null,
  createdAt: '2026-03-10T08:21:40.000Z',
  startedAt: '2026-03-10T08:22:02.000Z',
  completedAt: '2026-03-10T08:22:31.000Z',
};

const importUploadView: z.output<typeof importWithUpload> = {
  import: {
    ...importView,
    status: 'awaiting_upload',
    counts: { rows: 0, created: 0, updated: 0, unchanged: 0, failed: 0 },
    startedAt: null,
    completedAt: null,
  },
  upload: {
    method: 'POST',
    url: 'https://parley-files.s3.eu-west-1.amazonaws.com/',
    fields: {
      key: `bulk/imports/${ids.workspace}/66a20f1c7d1c4f2a9b3e5e02.csv`,
      'Content-Type': 'text/csv',
      Policy: 'eyJleHBpcmF0aW9uIjoiMjAyNi0wMy0xMFQwODozNjo0MFoiLCJjb25kaXRpb25zIjpbXX0=',
      'X-Amz-Signature': '4b1d9e0c2a7f3e8d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d',
    },
    expiresAt: '2026-03-10T08:36:40.000Z',
    maxBytes: 52428800,
  },
};

const erasureView: z.output<typeof erasure> = {
  _id: '66a20f1c7d1c4f2a9b3e5e03',
  customerId: ids.customer,
  status: 'completed',
  counts: {
    leads: 1,
    tasks: 0,
    activities: 2,
    bookings: 1,
    broadcastRecipients: 1,
    conversations: 3,
    messages: 27,
    files: 2,
    bulkCsvs: 2,
    csvRows: 3,
    workflowExecutions: 2,
    customer: 1,
    deliveries: 14,
    events: 41,
    idempotencyRecords: 2,
  },
  createdAt: '2026-03-10T08:21:40.000Z',
  completedAt: '2026-03-10T08:21:46.000Z',
};

export const computedFixtures: Record<string, unknown> = {
  ReportRange: rangeView,
  OverviewReport: overviewView,
  ConversationsReport: conversationsView,
  AgentReport: agentView,
  PipelineReport: pipelineView,
  WebhooksReport: webhooksView,
  PipelineSummary: summaryView,
  Suggestion: suggestionView,
  WebhookEventType: eventTypeView,
  BulkTaggingResult: bulkView,
  CustomerBatch: batchView,
  ExportWithDownload: exportView,
  Export: { ...exportView, status: 'queued', rows: 0, completedAt: null, download: undefined },
  Import: importView,
  Erasure: erasureView,
  ImportUpload: importUploadView,
};
