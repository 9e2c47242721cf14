import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const BASE = '/api/v1/inbox/conversations';
const route = areaRoutes('inbox');

export const inboxWiring = {
  routes: [
    route('POST', BASE, 'create-conversation', 'Create a conversation with a customer'),
    route('GET', BASE, 'list-conversations', 'List conversations, filtered by status, assignee, channel, customer or tag'),
    route('GET', `${BASE}/{id}`, 'get-conversation', 'Get a conversation'),
    route('PATCH', `${BASE}/{id}`, 'update-conversation', "Change a conversation's subject or priority"),
    route('DELETE', `${BASE}/{id}`, 'delete-conversation', 'Delete a conversation'),
    route('POST', `${BASE}/{id}/assign`, 'assign-conversation', 'Assign a conversation to an agent'),
    route('POST', `${BASE}/{id}/unassign`, 'unassign-conversation', 'Unassign a conversation'),
    route('POST', `${BASE}/{id}/status`, 'change-conversation-status', 'Open, set pending, snooze or close a conversation'),
    route('GET', `${BASE}/{id}/messages`, 'list-messages', "A conversation's messages, oldest first"),
    route('POST', `${BASE}/{id}/messages`, 'create-message', 'Reply to a conversation or add a private note'),
    route('POST', '/api/v1/inbox/messages/incoming', 'receive-message', "Record a customer's incoming message (channel entry point)"),
  ],
  schedules: [
    {
      name: 'wake-snoozed-conversations',
      everyMinutes: 1,
      target: { handler: 'functions/schedules/wake-snoozed.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
    {
      // Hourly: a retention is counted in days, and each run is bounded (SWEEP_BATCH), so a backlog drains over a few hours.
      name: 'sweep-retention',
      everyMinutes: 60,
      target: { handler: 'functions/schedules/sweep-retention.ts', access: { table: 'write' }, timeoutSeconds: 300 },
    },
  ],
} satisfies AreaWiring;
