import { areaRoute } from './inbox';
import type { HttpRoute, ScheduleSpec } from './types';

const CRM = '/api/v1/crm';
const PIPELINES = `${CRM}/pipelines`;
const LEADS = `${CRM}/leads`;
const TASKS = `${CRM}/tasks`;
const ACTIVITIES = `${CRM}/activities`;
const http = areaRoute('crm');

export const crmWiring: { routes: HttpRoute[]; schedules: ScheduleSpec[] } = {
  routes: [
    http('POST', PIPELINES, 'create-pipeline', 'Create a pipeline with its stages (open, won and lost stages are added when missing)'),
    http('GET', PIPELINES, 'list-pipelines', 'List pipelines, oldest first'),
    http('GET', `${PIPELINES}/{id}`, 'get-pipeline', 'Get a pipeline with its stages'),
    http('PATCH', `${PIPELINES}/{id}`, 'update-pipeline', 'Rename a pipeline'),
    http('DELETE', `${PIPELINES}/{id}`, 'delete-pipeline', 'Delete a pipeline that holds no leads'),
    http('GET', `${PIPELINES}/{id}/summary`, 'get-pipeline-summary', 'Per stage: lead count, summed value and probability-weighted value'),
    http('POST', `${PIPELINES}/{id}/stages`, 'create-stage', 'Add a stage to a pipeline'),
    http('POST', `${PIPELINES}/{id}/stages/reorder`, 'reorder-stages', "Reorder a pipeline's stages"),
    http('PATCH', `${PIPELINES}/{id}/stages/{stageId}`, 'update-stage', "Rename a stage, change its probability, or its kind while it is empty"),
    http('DELETE', `${PIPELINES}/{id}/stages/{stageId}`, 'delete-stage', 'Delete a stage that holds no leads'),
    http('POST', LEADS, 'create-lead', 'Create a lead in a pipeline stage'),
    http('GET', LEADS, 'list-leads', 'List leads, filtered by pipeline, stage, status, assignee, customer or tag'),
    http('GET', `${LEADS}/{id}`, 'get-lead', 'Get a lead'),
    http('PATCH', `${LEADS}/{id}`, 'update-lead', "Update a lead's fields or assignee"),
    http('DELETE', `${LEADS}/{id}`, 'delete-lead', 'Delete a lead'),
    http('POST', `${LEADS}/{id}/move`, 'move-lead', 'Move a lead to another stage (won and lost stages close it)'),
    http('GET', `${LEADS}/{id}/stage-history`, 'list-stage-history', "A lead's stays in each stage, oldest first"),
    http('GET', `${LEADS}/{id}/activities`, 'list-lead-activities', "A lead's timeline, newest first"),
    http('POST', TASKS, 'create-task', 'Create a task'),
    http('GET', TASKS, 'list-tasks', 'List tasks, filtered by assignee, lead, status or overdue'),
    http('GET', `${TASKS}/{id}`, 'get-task', 'Get a task'),
    http('PATCH', `${TASKS}/{id}`, 'update-task', 'Update an open task'),
    http('DELETE', `${TASKS}/{id}`, 'delete-task', 'Delete a task'),
    http('POST', `${TASKS}/{id}/complete`, 'complete-task', 'Complete a task'),
    http('POST', ACTIVITIES, 'create-activity', 'Log a note, call, email or meeting on a lead or customer'),
    http('GET', ACTIVITIES, 'list-activities', 'List activities, newest first, of a lead, a customer or the workspace'),
    http('GET', `${ACTIVITIES}/{id}`, 'get-activity', 'Get an activity'),
    http('DELETE', `${ACTIVITIES}/{id}`, 'delete-activity', 'Delete an activity added through the API'),
    http('GET', '/api/v1/contacts/customers/{id}/activities', 'list-customer-activities', "A customer's CRM timeline, newest first"),
  ],
  schedules: [
    {
      name: 'remind-due-tasks',
      everyMinutes: 1,
      target: { handler: 'functions/schedules/remind-due-tasks.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
};
