import type { HttpMethod, HttpRoute, ScheduleSpec } from './types';

/** Route builder for an area whose GETs only read the table and everything else writes. */
export const areaRoute =
  (area: string) =>
  (method: HttpMethod, path: string, file: string, summary: string): HttpRoute => ({
    method,
    path,
    handler: `functions/http/${area}/${file}.ts`,
    access: { table: method === 'GET' ? 'read' : 'write' },
    summary,
  });

const BASE = '/api/v1/inbox/conversations';
const http = areaRoute('inbox');

export const inboxWiring: { routes: HttpRoute[]; schedules: ScheduleSpec[] } = {
  routes: [
    http('POST', BASE, 'create-conversation', 'Create a conversation with a customer'),
    http('GET', BASE, 'list-conversations', 'List conversations, filtered by status, assignee, channel, customer or tag'),
    http('GET', `${BASE}/{id}`, 'get-conversation', 'Get a conversation'),
    http('PATCH', `${BASE}/{id}`, 'update-conversation', "Change a conversation's subject or priority"),
    http('DELETE', `${BASE}/{id}`, 'delete-conversation', 'Delete a conversation'),
    http('POST', `${BASE}/{id}/assign`, 'assign-conversation', 'Assign a conversation to an agent'),
    http('POST', `${BASE}/{id}/unassign`, 'unassign-conversation', 'Unassign a conversation'),
    http('POST', `${BASE}/{id}/status`, 'change-conversation-status', 'Open, set pending, snooze or close a conversation'),
    http('GET', `${BASE}/{id}/messages`, 'list-messages', "A conversation's messages, oldest first"),
    http('POST', `${BASE}/{id}/messages`, 'create-message', 'Reply to a conversation or add a private note'),
    http('POST', '/api/v1/inbox/messages/incoming', 'receive-message', "Record a customer's incoming message (channel entry point)"),
  ],
  schedules: [
    {
      name: 'wake-snoozed-conversations',
      everyMinutes: 1,
      target: { handler: 'functions/schedules/wake-snoozed.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
};
