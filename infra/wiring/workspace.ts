import { areaRoute } from './inbox';
import type { HttpRoute, ScheduleSpec } from './types';

const WORKSPACE = '/api/v1/workspace';
const MEMBERS = `${WORKSPACE}/members`;
const http = areaRoute('workspace');

export const workspaceWiring: { routes: HttpRoute[]; schedules: ScheduleSpec[] } = {
  routes: [
    http('GET', WORKSPACE, 'get-workspace', "The workspace's settings: name, timezone, locale and business hours"),
    http('PATCH', WORKSPACE, 'update-workspace', "Change the workspace's name, timezone, locale or business hours"),
    http('POST', MEMBERS, 'invite-member', 'Invite a member (owner, admin, manager or agent)'),
    http('GET', MEMBERS, 'list-members', "List the workspace's members, oldest first, filterable by status"),
    http('GET', `${MEMBERS}/{id}`, 'get-member', 'Get a member'),
    http('PATCH', `${MEMBERS}/{id}`, 'update-member', "Change a member's role (the last owner cannot be demoted)"),
    http('DELETE', `${MEMBERS}/{id}`, 'remove-member', 'Remove a member and unassign their open conversations (never the last owner)'),
    http('POST', `${MEMBERS}/{id}/accept`, 'accept-member', "Accept a member's invitation (stands in for the invitee's link)"),
  ],
  schedules: [
    {
      name: 'finish-member-removals',
      everyMinutes: 1,
      target: { handler: 'functions/schedules/finish-member-removals.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
};
