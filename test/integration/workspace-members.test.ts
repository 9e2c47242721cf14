import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import { create, CUSTOMERS, LEADS, makePipeline, TASKS } from '../support/crm';
import { addMember, MEMBERS } from '../support/members';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';

const env = useTestStack({ workers: false });

const WORKSPACE = '/api/v1/workspace';
const CONV = '/api/v1/inbox/conversations';
const BOOKINGS = '/api/v1/scheduling/bookings';

const memberEvents = async (workspaceId: string, id: string) =>
  (await outboxEvents(workspaceId)).filter((e) => e.eventType.startsWith('auth.member.') && (e.data.member as { _id: string })._id === id);

describe('workspace settings', () => {
  it('reads the defaults, patches name, timezone, locale and business hours with one event carrying the changes', async () => {
    const t = await env.tenant();
    const before = (await t.api.get(WORKSPACE)).body.data.workspace;
    expect(before).toMatchObject({ _id: t.workspaceId, timezone: 'UTC', locale: 'en-US' });
    expect(before.businessHours.monday).toEqual([{ start: '09:00', end: '17:00' }]);
    expect(before.businessHours.sunday).toEqual([]);

    const patch = {
      name: 'Acme',
      timezone: 'Europe/Berlin',
      locale: 'de-DE',
      businessHours: { saturday: [{ start: '10:00', end: '14:00' }], monday: [] },
    };
    const res = await t.api.patch(WORKSPACE, patch);
    expect(res.status).toBe(200);
    const after = res.body.data.workspace;
    expect(after).toMatchObject({ name: 'Acme', timezone: 'Europe/Berlin', locale: 'de-DE' });
    expect(after.businessHours).toMatchObject({
      saturday: [{ start: '10:00', end: '14:00' }],
      monday: [],
      tuesday: [{ start: '09:00', end: '17:00' }],
    });
    expect((await t.api.get(WORKSPACE)).body.data.workspace).toEqual(after);

    // The same values again: a no-op, no event.
    expect((await t.api.patch(WORKSPACE, patch)).body.data.workspace.updatedAt).toBe(after.updatedAt);
    const events = await outboxEvents(t.workspaceId, 'auth.workspace.updated');
    expect(events).toHaveLength(1);
    expect(events[0]!.changes).toMatchObject({
      name: ['Test workspace', 'Acme'],
      timezone: ['UTC', 'Europe/Berlin'],
      locale: ['en-US', 'de-DE'],
    });
    expect(Object.keys(events[0]!.changes!).sort()).toEqual(['businessHours', 'locale', 'name', 'timezone']);
  });

  it('refuses an unknown timezone or locale and malformed business hours with 422 naming each field', async () => {
    const t = await env.tenant();
    for (const [body, path] of [
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
      [{ timezone: 'Europe/Berlin ' }, 'timezone'],
      [{ locale: 'not a locale!' }, 'locale'],
      [{ businessHours: { monday: [{ start: '17:00', end: '09:00' }] } }, 'businessHours.monday[0].end'],
      [
        {
          businessHours: {
            monday: [
              { start: '09:00', end: '12:00' },
              { start: '11:00', end: '13:00' },
            ],
          },
        },
        'businessHours.monday[1].start',
      ],
      [{ businessHours: { monday: [{ start: '9:00', end: '12:00' }] } }, 'businessHours.monday[0].start'],
      [{ businessHours: { funday: [] } }, 'businessHours.funday'],
    ] as const) {
      const res = await t.api.patch(WORKSPACE, body);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(
        res.body.error.details.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toEqual([path]);
    }
  });

  it('needs admin:all', async () => {
    const t = await env.tenant(['inbox:write', 'inbox:read']);
    expectError(await t.api.get(WORKSPACE), 403, 'FORBIDDEN');
    expectError(await t.api.patch(WORKSPACE, { name: 'x' }), 403, 'FORBIDDEN');
    expectError(await t.api.get(MEMBERS), 403, 'FORBIDDEN');
  });
});

describe('members', () => {
  it('invites, accepts, changes the role of and removes a member, one event each', async () => {
    const t = await env.tenant();
    const invited = await t.api.post(MEMBERS, { email: 'Ada@Example.com', name: 'Ada', role: 'manager' });
    expect(invited.status).toBe(201);
    const member = invited.body.data.member;
    expect(member).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada',
      role: 'manager',
      status: 'invited',
      joinedAt: null,
      removedAt: null,
    });
    expectError(await t.api.post(MEMBERS, { email: 'ada@example.com' }), 409, 'CONFLICT');

    const accepted = await t.api.post(`${MEMBERS}/${member._id}/accept`);
    expect(accepted.body.data.member).toMatchObject({ status: 'active', joinedAt: expect.any(String) });
    expectError(await t.api.post(`${MEMBERS}/${member._id}/accept`), 409, 'CONFLICT');

    const promoted = await t.api.patch(`${MEMBERS}/${member._id}`, { role: 'admin' });
    expect(promoted.body.data.member.role).toBe('admin');
    // The same role again is a no-op.
    expect((await t.api.patch(`${MEMBERS}/${member._id}`, { role: 'admin' })).body.data.member.updatedAt).toBe(
      promoted.body.data.member.updatedAt,
    );

    const removed = await t.api.delete(`${MEMBERS}/${member._id}`);
    expect(removed.body.data.member).toMatchObject({ status: 'removed', removedAt: expect.any(String) });
    expect((await t.api.get(`${MEMBERS}/${member._id}`)).body.data.member.status).toBe('removed');
    expectError(await t.api.delete(`${MEMBERS}/${member._id}`), 409, 'CONFLICT');
    expectError(await t.api.patch(`${MEMBERS}/${member._id}`, { role: 'agent' }), 409, 'CONFLICT');
    // The address is free again once its member is removed.
    expect((await t.api.post(MEMBERS, { email: 'ada@example.com' })).status).toBe(201);

    const events = await memberEvents(t.workspaceId, member._id);
    expect(events.map((e) => e.eventType)).toEqual([
      'auth.member.invited',
      'auth.member.joined',
      'auth.member.role_changed',
      'auth.member.removed',
    ]);
    expect(events[1]!.changes).toEqual({ status: ['invited', 'active'] });
    expect(events[2]!.changes).toEqual({ role: ['manager', 'admin'] });
    expect(events[3]!.changes).toEqual({ status: ['active', 'removed'] });
    expect(events.every((e) => e.livemode === false)).toBe(true);
  });

  it('lists members oldest first with exact totals, filtered by status', async () => {
    const t = await env.tenant();
    const a = await addMember(t.api);
    const b = await addMember(t.api, {}, { invited: true });
    const c = await addMember(t.api);
    await t.api.delete(`${MEMBERS}/${c._id}`);
    const list = async (q: string) => {
      const res = await t.api.get(`${MEMBERS}${q}`);
      return { ids: res.body.data.members.map((m: { _id: string }) => m._id), total: res.body.data.pagination.total };
    };
    expect(await list('')).toEqual({ ids: [a._id, b._id, c._id], total: 3 });
    expect(await list('?status=active')).toEqual({ ids: [a._id], total: 1 });
    expect(await list('?status=invited')).toEqual({ ids: [b._id], total: 1 });
    expect(await list('?status=removed')).toEqual({ ids: [c._id], total: 1 });
    expectError(await t.api.get(`${MEMBERS}?role=agent`), 422, 'VALIDATION_ERROR');
    expectError(await t.api.post(MEMBERS, { email: 'x@example.com', role: 'king' }), 422, 'VALIDATION_ERROR');
    expectError(await t.api.post(MEMBERS, { email: 'not-an-email' }), 422, 'VALIDATION_ERROR');
  });

  it('never removes or demotes the last active owner (409), also under concurrent demotions', async () => {
    const t = await env.tenant();
    const first = await addMember(t.api, { role: 'owner' });
    expectError(await t.api.patch(`${MEMBERS}/${first._id}`, { role: 'admin' }), 409, 'CONFLICT');
    expectError(await t.api.delete(`${MEMBERS}/${first._id}`), 409, 'CONFLICT');
    // An invited owner is no owner yet: it does not count.
    await addMember(t.api, { role: 'owner' }, { invited: true });
    expectError(await t.api.delete(`${MEMBERS}/${first._id}`), 409, 'CONFLICT');

    for (let round = 0; round < 3; round++) {
      const second = await addMember(t.api, { role: 'owner' });
      const owners = [first._id, second._id];
      const results = await Promise.all(owners.map((id) => t.api.patch(`${MEMBERS}/${id}`, { role: 'admin' })));
      expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
      const active = (await t.api.get(`${MEMBERS}?status=active&limit=100`)).body.data.members.filter(
        (m: { role: string }) => m.role === 'owner',
      );
      expect(active).toHaveLength(1);
      // Restore: the demoted one leaves; `first` is the owner again for the next round.
      const demoted = owners[results.findIndex((r) => r.status === 200)]!;
      if (demoted === first._id) {
        expect((await t.api.patch(`${MEMBERS}/${first._id}`, { role: 'owner' })).status).toBe(200);
      }
      expect((await t.api.delete(`${MEMBERS}/${second._id}`)).status).toBe(200);
    }
    expect((await t.api.get(`${MEMBERS}/${first._id}`)).body.data.member).toMatchObject({ role: 'owner', status: 'active' });
  });

  it('keeps members per mode and answers 404 for another workspace’s member', async () => {
    const t = await env.tenant();
    const other = await env.tenant();
    const m = await addMember(other.api);
    expectError(await t.api.get(`${MEMBERS}/${m._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.post(`${MEMBERS}/${m._id}/accept`), 404, 'NOT_FOUND');
    const live = await env.liveMode(other);
    expectError(await live.api.get(`${MEMBERS}/${m._id}`), 404, 'NOT_FOUND');
  });
});

describe('assignees must be active members', () => {
  it('refuses a non-member, an invited, a removed or another workspace’s member as assignee with 422, everywhere', async () => {
    const t = await env.tenant();
    const other = await env.tenant();
    const { pipeline } = await makePipeline(t.api);
    const customer = await create(t.api, CUSTOMERS, { name: 'Ada' }, 'customer');
    const conversation = await create(t.api, CONV, { customerId: customer._id }, 'conversation');
    const lead = await create(t.api, LEADS, { title: 'Deal', pipelineId: pipeline._id }, 'lead');
    const invited = await addMember(t.api, {}, { invited: true });
    const removed = await addMember(t.api);
    await t.api.delete(`${MEMBERS}/${removed._id}`);
    const foreign = await addMember(other.api);
    const start = new Date(Math.ceil((Date.now() + 86_400_000) / 900_000) * 900_000);
    const booking = (assigneeId: string) => ({
      title: 'Call',
      customerId: customer._id,
      assigneeId,
      startAt: start.toISOString(),
      endAt: new Date(start.getTime() + 1_800_000).toISOString(),
    });

    const routes = [
      (assigneeId: string) => ['POST', `${CONV}/${conversation._id}/assign`, { assigneeId }] as const,
      (assigneeId: string) => ['POST', CONV, { customerId: customer._id, assigneeId }] as const,
      (assigneeId: string) => ['POST', LEADS, { title: 'Deal', pipelineId: pipeline._id, assigneeId }] as const,
      (assigneeId: string) => ['PATCH', `${LEADS}/${lead._id}`, { assigneeId }] as const,
      (assigneeId: string) => ['POST', TASKS, { title: 'Call', assigneeId }] as const,
      (assigneeId: string) => ['POST', BOOKINGS, booking(assigneeId)] as const,
    ] as const;
    const assignees = ['a'.repeat(24), invited._id, removed._id, foreign._id];
    // The routes in parallel (24 requests in sequence can outlast the test timeout on a loaded machine), each
    // route's four assignees in sequence: four writes to the same records at once would contend, and a
    // contention the server cannot drain in time is rightly a 429, which is not what this test is about.
    await Promise.all(
      routes.map(async (route) => {
        for (const assigneeId of assignees) {
          const [method, path, body] = route(assigneeId);
          const res = await t.api.call(method, path, body);
          expectError(res, 422, 'VALIDATION_ERROR');
          expect(res.body.error.details.errors, `${method} ${path} ${assigneeId}`).toEqual([
            { path: 'assigneeId', message: 'Must be an active member of this workspace' },
          ]);
        }
      }),
    );
    const agent = await addMember(t.api);
    expect((await t.api.post(`${CONV}/${conversation._id}/assign`, { assigneeId: agent._id })).status).toBe(200);
    expect((await t.api.patch(`${LEADS}/${lead._id}`, { assigneeId: agent._id })).status).toBe(200);
  });

  it('removing a member unassigns their open conversations in the same operation, with events; closed ones keep their history', async () => {
    const t = await env.tenant();
    const agent = await addMember(t.api);
    const customer = await create(t.api, CUSTOMERS, { name: 'Ada' }, 'customer');
    const open = await Promise.all(
      [1, 2, 3].map(() => create(t.api, CONV, { customerId: customer._id, assigneeId: agent._id }, 'conversation')),
    );
    await t.api.post(`${CONV}/${open[2]._id}/status`, { status: 'pending' });
    const closed = await create(t.api, CONV, { customerId: customer._id, assigneeId: agent._id }, 'conversation');
    await t.api.post(`${CONV}/${closed._id}/status`, { status: 'closed' });

    expect((await t.api.delete(`${MEMBERS}/${agent._id}`)).status).toBe(200);
    for (const c of open) expect((await t.api.get(`${CONV}/${c._id}`)).body.data.conversation.assigneeId).toBeNull();
    expect((await t.api.get(`${CONV}/${closed._id}`)).body.data.conversation.assigneeId).toBe(agent._id);
    const unassigned = await outboxEvents(t.workspaceId, 'inbox.conversation.unassigned');
    expect(unassigned.map((e) => (e.data.conversation as { _id: string })._id).sort()).toEqual(open.map((c) => c._id).sort());
    expect(unassigned.every((e) => JSON.stringify(e.changes) === JSON.stringify({ assigneeId: [agent._id, null] }))).toBe(true);
    expect((await t.api.get(`${CONV}?assigneeId=${agent._id}&status=open`)).body.data.pagination.total).toBe(0);
  });

  it('a removal racing assignments leaves no open conversation with the removed member', async () => {
    const t = await env.tenant();
    const customer = await create(t.api, CUSTOMERS, { name: 'Ada' }, 'customer');
    const conversations = await Promise.all(
      Array.from({ length: 6 }, () => create(t.api, CONV, { customerId: customer._id }, 'conversation')),
    );
    for (let round = 0; round < 2; round++) {
      const agent = await addMember(t.api);
      const [removal, ...assigns] = await Promise.all([
        t.api.delete(`${MEMBERS}/${agent._id}`),
        ...conversations.map((c) => t.api.post(`${CONV}/${c._id}/assign`, { assigneeId: agent._id })),
      ]);
      expect(removal.status).toBe(200);
      // Each assignment either committed before the removal (and was undone by it) or was refused.
      for (const a of assigns) expect([200, 422]).toContain(a.status);
      for (const c of conversations) expect((await t.api.get(`${CONV}/${c._id}`)).body.data.conversation.assigneeId).not.toBe(agent._id);
    }
  });
});
