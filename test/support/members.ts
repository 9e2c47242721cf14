import type { Client } from './api';

export const MEMBERS = '/api/v1/workspace/members';

let serial = 0;

/** Invites a member through the API and, unless `invited`, accepts for them: their `_id` is then a valid assignee. */
export const addMember = async (
  api: Client,
  body: { role?: string; email?: string; name?: string } = {},
  opts: { invited?: boolean } = {},
) => {
  const email = body.email ?? `agent-${process.pid}-${Date.now().toString(36)}-${++serial}@example.com`;
  const invited = await api.post(MEMBERS, { role: 'agent', ...body, email });
  if (invited.status !== 201) throw new Error(`inviting a member failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  const id = invited.body.data.member._id as string;
  if (opts.invited) return invited.body.data.member;
  const accepted = await api.post(`${MEMBERS}/${id}/accept`);
  if (accepted.status !== 200) throw new Error(`accepting a member failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  return accepted.body.data.member;
};

/** The id of a fresh active agent: what every assignee field now needs. */
export const agentId = async (api: Client): Promise<string> => (await addMember(api))._id;

/** The start of the next quarter hour at least `hours` from now, as ISO. */
export const quarterHourIn = (hours: number, from = Date.now()): string => {
  const q = 15 * 60_000;
  return new Date(Math.ceil((from + hours * 3_600_000) / q) * q).toISOString();
};
