import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const CRM = '/api/v1/crm';
const PIPELINES = `${CRM}/pipelines`;
const LEADS = `${CRM}/leads`;
const TASKS = `${CRM}/tasks`;
const ACTIVITIES = `${CRM}/activities`;
const route = areaRoutes('crm');

export const crmWiring = {
  routes: [
    route('POST', PIPELINES, 'create-pipeline', 'Create a pipeline with its stages (open, won and lost stages are added when missing)'),
    route('GET', PIPELINES, 'list-pipelines', 'List pipelines, oldest first'),
    route('GET', `${PIPELINES}/{id}`, 'get-pipeline', 'Get a pipeline with its stages'),
    route('PATCH', `${PIPELINES}/{id}`, 'update-pipeline', 'Rename a pipeline'),
    route('DELETE', `${PIPELINES}/{id}`, 'delete-pipeline', 'Delete a pipeline that holds no leads'),
    route('GET', `${PIPELINES}/{id}/summary`, 'get-pipeline-summary', 'Per stage: lead count, summed value and probability-weighted value'),
    route('POST', `${PIPELINES}/{id}/stages`, 'create-stage', 'Add a stage to a pipeline'),
    route('POST', `${PIPELINES}/{id}/stages/reorder`, 'reorder-stages', "Reorder a pipeline's stages"),
    route(
      'PATCH',
      `${PIPELINES}/{id}/stages/{stageId}`,
      'update-stage',
      'Rename a stage, change its probability, or its kind while it is empty',
    ),
    route('DELETE', `${PIPELINES}/{id}/stages/{stageId}`, 'delete-stage', 'Delete a stage that holds no leads'),
    route('POST', LEADS, 'create-lead', 'Create a lead in a pipeline stage'),
    route('GET', LEADS, 'list-leads', 'List leads, filtered by pipeline, stage, status, assignee, customer or tag'),
    route('GET', `${LEADS}/{id}`, 'get-lead', 'Get a lead'),
    route('PATCH', `${LEADS}/{id}`, 'update-lead', "Update a lead's fields or assignee"),
    route('DELETE', `${LEADS}/{id}`, 'delete-lead', 'Delete a lead'),
    route('POST', `${LEADS}/{id}/move`, 'move-lead', 'Move a lead to another stage (won and lost stages close it)'),
    route('GET', `${LEADS}/{id}/stage-history`, 'list-stage-history', "A lead's stays in each stage, oldest first"),
    route('GET', `${LEADS}/{id}/activities`, 'list-lead-activities', "A lead's timeline, newest first"),
    route('POST', TASKS, 'create-task', 'Create a task'),
    route('GET', TASKS, 'list-tasks', 'List tasks, filtered by assignee, lead, status or overdue'),
    route('GET', `${TASKS}/{id}`, 'get-task', 'Get a task'),
    route('PATCH', `${TASKS}/{id}`, 'update-task', 'Update an open task'),
    route('DELETE', `${TASKS}/{id}`, 'delete-task', 'Delete a task'),
    route('POST', `${TASKS}/{id}/complete`, 'complete-task', 'Complete a task'),
    route('POST', ACTIVITIES, 'create-activity', 'Log a note, call, email or meeting on a lead or customer'),
    route('GET', ACTIVITIES, 'list-activities', 'List activities, newest first, of a lead, a customer or the workspace'),
    route('GET', `${ACTIVITIES}/{id}`, 'get-activity', 'Get an activity'),
    route('DELETE', `${ACTIVITIES}/{id}`, 'delete-activity', 'Delete an activity added through the API'),
    route('GET', '/api/v1/contacts/customers/{id}/activities', 'list-customer-activities', "A customer's CRM timeline, newest first"),
  ],
  schedules: [
    {
      name: 'remind-due-tasks',
      everyMinutes: 1,
      target: { handler: 'functions/schedules/remind-due-tasks.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
} satisfies AreaWiring;
