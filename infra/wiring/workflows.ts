import { OUTBOX_PATTERN } from '../../shared/events/from-bus';
import type { EventRule, HttpRoute, QueueSpec, ScheduleSpec } from './types';

const QUEUE = 'workflow-steps';
const DLQ = 'workflow-steps-dlq';
const base = '/api/v1/workflows';
const executions = `${base}/executions`;
const fn = (name: string) => `functions/http/workflows/${name}.ts`;
const read = { table: 'read' } as const;
const write = { table: 'write' } as const;
const writeAndEnqueue = { table: 'write', queues: [QUEUE] } as const;

const routes: HttpRoute[] = [
  { method: 'POST', path: base, handler: fn('create-workflow'), access: write, summary: 'Create a workflow (inactive until activated)' },
  { method: 'GET', path: base, handler: fn('list-workflows'), access: read, summary: "List the workspace's workflows, newest first" },
  { method: 'GET', path: `${base}/notification-secret`, handler: fn('get-notification-secret'), access: write, summary: 'The secret on_error notifications are signed with' },
  { method: 'GET', path: executions, handler: fn('list-executions'), access: read, summary: 'Executions, newest first, filterable by workflowId and status' },
  { method: 'GET', path: `${executions}/{id}`, handler: fn('get-execution'), access: read, summary: 'One execution with every step attempt' },
  { method: 'POST', path: `${executions}/{id}/cancel`, handler: fn('cancel-execution'), access: write, summary: 'Cancel a queued, running or waiting execution' },
  { method: 'POST', path: `${executions}/{id}/retry`, handler: fn('retry-execution'), access: writeAndEnqueue, summary: 'Re-run a failed execution from its failed step' },
  { method: 'GET', path: `${base}/{id}`, handler: fn('get-workflow'), access: read, summary: 'One workflow' },
  { method: 'PATCH', path: `${base}/{id}`, handler: fn('update-workflow'), access: write, summary: 'Change a workflow (a new version)' },
  { method: 'DELETE', path: `${base}/{id}`, handler: fn('delete-workflow'), access: write, summary: 'Delete a workflow (its executions stay readable)' },
  { method: 'POST', path: `${base}/{id}/activate`, handler: fn('activate-workflow'), access: write, summary: 'Activate: event and schedule triggers start runs' },
  { method: 'POST', path: `${base}/{id}/deactivate`, handler: fn('deactivate-workflow'), access: write, summary: 'Deactivate: triggers stop starting runs' },
  { method: 'GET', path: `${base}/{id}/versions`, handler: fn('list-versions'), access: read, summary: "A workflow's saved versions, newest first" },
  { method: 'POST', path: `${base}/{id}/trigger`, handler: fn('trigger-workflow'), access: writeAndEnqueue, summary: 'Start a run now (202 with the execution)' },
];

/**
 * Visibility 150 s (6x the worker's 25 s, for throttled invocations) > worker timeout 25 s > one step (a
 * 10 s HTTP call, or notifications sent in parallel within 10 s), so a step is never in flight twice unless
 * its worker died; then its message comes back after 150 s and the step's idempotency key keeps its effect
 * from repeating. A message whose step keeps throwing (not a step failure, which is the workflow's
 * business) is parked in the DLQ after 25 receives: about an hour, so throttling alone, which the 5-minute
 * age alarm reports long before, cannot park a step. Messages live 7 days, half the DLQ's 14.
 */
const queues: QueueSpec[] = [
  {
    name: QUEUE,
    urlEnv: 'WORKFLOW_QUEUE_URL',
    visibilityTimeoutSeconds: 150,
    retentionDays: 7,
    dlq: { name: DLQ, urlEnv: 'WORKFLOW_DLQ_URL', maxReceiveCount: 25 },
    consumer: { handler: 'functions/queues/run-workflow-step.ts', access: writeAndEnqueue, timeoutSeconds: 25, batchSize: 10, maxConcurrency: 5 },
    ageAlarmSeconds: 300,
  },
];

const rules: EventRule[] = [
  {
    name: 'workflow-trigger',
    // Every outbox event: the function matches it against the workspace's active event triggers.
    pattern: OUTBOX_PATTERN,
    target: { handler: 'functions/events/workflow-trigger.ts', access: writeAndEnqueue, timeoutSeconds: 30 },
  },
];

const schedules: ScheduleSpec[] = [
  { name: 'run-workflow-schedules', everyMinutes: 1, target: { handler: 'functions/schedules/run-workflow-schedules.ts', access: writeAndEnqueue, timeoutSeconds: 60 } },
  { name: 'sweep-workflow-steps', everyMinutes: 1, target: { handler: 'functions/schedules/sweep-workflow-steps.ts', access: writeAndEnqueue, timeoutSeconds: 60 } },
];

export const workflowsWiring = { routes, queues, rules, schedules };
