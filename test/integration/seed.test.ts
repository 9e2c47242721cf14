import { describe, expect, it } from 'vitest';
import { seedOnFirstStart } from '../../infra/local/seed';
import { client } from '../support/api';
import { useTestStack } from '../support/stack';

const env = useTestStack({ workers: false });

describe('the first-start demo data', () => {
  // About 80 writes in sequence for the two modes: on a loaded machine that takes longer than the default 60 s.
  it('gives each mode a team, assigned conversations, leads and bookings the API serves', async () => {
    const seeded = await seedOnFirstStart();
    expect(seeded).toBeDefined();
    expect(await seedOnFirstStart()).toBeUndefined();
    for (const token of Object.values(seeded!.tokens)) {
      const api = client(env.stack.baseUrl, { token, workspaceId: seeded!.workspaceId });
      const members = (await api.get('/api/v1/workspace/members')).body.data.members;
      expect(members.map((m: { role: string; status: string }) => `${m.role}:${m.status}`)).toEqual([
        'owner:active',
        'manager:active',
        'agent:active',
        'agent:invited',
      ]);
      const agent = members[2]._id;
      expect((await api.get(`/api/v1/inbox/conversations?assigneeId=${agent}`)).body.data.pagination.total).toBe(1);
      expect((await api.get(`/api/v1/crm/leads?assigneeId=${agent}`)).body.data.pagination.total).toBe(1);
      const bookings = (await api.get(`/api/v1/scheduling/bookings?assigneeId=${agent}`)).body.data.bookings;
      expect(bookings.map((b: { status: string }) => b.status)).toEqual(['confirmed', 'pending']);
    }
  }, 180_000);
});
