import { areaRoutes } from './route';
import type { AreaWiring } from './types';

const WORKSPACE = '/api/v1/workspace';
const MEMBERS = `${WORKSPACE}/members`;
const route = areaRoutes('workspace');

export const workspaceWiring = {
  routes: [
    route('GET', WORKSPACE, 'get-workspace', "The workspace's settings: name, timezone, locale and business hours"),
    route(
      'PATCH',
      WORKSPACE,
      'update-workspace',
      "Change the workspace's name, timezone, locale, business hours, storage quota or retention",
    ),
    route('POST', MEMBERS, 'invite-member', 'Invite a member (owner, admin, manager or agent)'),
    route('GET', MEMBERS, 'list-members', "List the workspace's members, oldest first, filterable by status"),
    route('GET', `${MEMBERS}/{id}`, 'get-member', 'Get a member'),
    route('PATCH', `${MEMBERS}/{id}`, 'update-member', "Change a member's role (the last owner cannot be demoted)"),
    route('DELETE', `${MEMBERS}/{id}`, 'remove-member', 'Remove a member and unassign their open conversations (never the last owner)'),
    route('POST', `${MEMBERS}/{id}/accept`, 'accept-member', "Accept a member's invitation (stands in for the invitee's link)"),
  ],
  schedules: [
    {
      name: 'finish-member-removals',
      everyMinutes: 5,
      target: { handler: 'functions/schedules/finish-member-removals.ts', access: { table: 'write' }, timeoutSeconds: 60 },
    },
  ],
} satisfies AreaWiring;
