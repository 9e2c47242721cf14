import { OUTBOX_PATTERN } from '../../shared/events/from-bus';
import { areaRoutes } from './route';
import type { AreaWiring, EventRule, QueueSpec, ScheduleSpec } from './types';

const QUEUE = 'workflow-steps';
const DLQ = 'workflow-steps-dlq';
const base = '/api/v1/workflows';
const executions = `${base}/executions`;
const route = areaRoutes('workflows');
const write = { table: 'write' } as const;
const writeAndEnqueue = { table: 'write', queues: [QUEUE] } as const;

const routes = [
  route('POST', base, 'create-workflow', 'Create a workflow (inactive until activated)'),
  route('GET', base, 'list-workflows', "List the workspace's workflows, newest first"),
  route('GET', `${base}/notification-secret`, 'get-notification-secret', 'The secret on_error notifications are signed with', {
    access: write,
  }),
  route('GET', executions, 'list-executions', 'Executions, newest first, filterable by workflowId and status'),
  route('GET', `${executions}/{id}`, 'get-execution', 'One execution with every step attempt'),
  route('POST', `${executions}/{id}/cancel`, 'cancel-execution', 'Cancel a queued, running or waiting execution'),
  route('POST', `${executions}/{id}/retry`, 'retry-execution', 'Re-run a failed execution from its failed step', {
    access: writeAndEnqueue,
  }),
  route('GET', `${base}/{id}`, 'get-workflow', 'One workflow'),
  route('PATCH', `${base}/{id}`, 'update-workflow', 'Change a workflow (a new version)'),
  route('DELETE', `${base}/{id}`, 'delete-workflow', 'Delete a workflow (its executions stay readable)'),
  route('POST', `${base}/{id}/activate`, 'activate-workflow', 'Activate: event and schedule triggers start runs'),
  route('POST', `${base}/{id}/deactivate`, 'deactivate-workflow', 'Deactivate: triggers stop starting runs'),
  route('GET', `${base}/{id}/versions`, 'list-versions', "A workflow's saved versions, newest first"),
  route('POST', `${base}/{id}/trigger`, 'trigger-workflow', 'Start a run now (202 with the execution)', { access: writeAndEnqueue }),
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
    consumer: {
      handler: 'functions/queues/run-workflow-step.ts',
      access: writeAndEnqueue,
      timeoutSeconds: 25,
      batchSize: 10,
      maxConcurrency: 5,
    },
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
  {
    name: 'run-workflow-schedules',
    everyMinutes: 1,
    target: { handler: 'functions/schedules/run-workflow-schedules.ts', access: writeAndEnqueue, timeoutSeconds: 60 },
  },
  {
    name: 'sweep-workflow-steps',
    everyMinutes: 1,
    target: { handler: 'functions/schedules/sweep-workflow-steps.ts', access: writeAndEnqueue, timeoutSeconds: 60 },
  },
];

export const workflowsWiring = { routes, queues, rules, schedules } satisfies AreaWiring;
