import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { workspaceCounter } from '../../shared/data/counters';
import { leadKey } from '../../shared/data/entity-keys';
import { membershipItems } from '../../shared/data/lists';
import { byCreation, placedAt } from '../../shared/domain/lists';
import { client, expectError } from '../support/api';
import { create, CUSTOMERS, eventsOf, LEADS, makePipeline, PIPELINES } from '../support/crm';
import { outboxEvents } from '../support/outbox';
import { agentId } from '../support/members';
import { useTestStack } from '../support/stack';
import { tokenFor } from '../support/tenants';

const env = useTestStack({ workers: false });

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A fresh workspace with a default pipeline and a customer. */
const tenant = async () => {
  const t = await env.tenant();
  const { pipeline, stage } = await makePipeline(t.api);
  const customer = await create(t.api, CUSTOMERS, { name: 'Ada Lovelace' }, 'customer');
  const lead = (body: Record<string, unknown> = {}) =>
    create(t.api, LEADS, { title: 'Annual plan', pipelineId: pipeline._id, ...body }, 'lead');
  const move = (id: string, body: Record<string, unknown>) => t.api.post(`${LEADS}/${id}/move`, body);
  return { ...t, pipeline, stage, customer, lead, move };
};

const ids = (res: { body: any }) => res.body.data.leads.map((l: { _id: string }) => l._id);

describe('leads', () => {
  it('creates a lead in the first open stage, with value, links and attributes, and one created event', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const conversation = await create(t.api, '/api/v1/inbox/conversations', { customerId: t.customer._id }, 'conversation');
    const lead = await t.lead({
      value: { amount: 129_900, currency: 'EUR' },
      customerId: t.customer._id,
      conversationId: conversation._id,
      assigneeId: AGENT,
      source: 'website',
      expectedCloseDate: '2027-03-31',
      attributes: { seats: 12 },
    });
    expect(lead).toMatchObject({
      title: 'Annual plan',
      pipelineId: t.pipeline._id,
      stageId: t.stage('New')._id,
      status: 'open',
      value: { amount: 129_900, currency: 'EUR' },
      customerId: t.customer._id,
      conversationId: conversation._id,
      assigneeId: AGENT,
      source: 'website',
      expectedCloseDate: '2027-03-31',
      lostReason: null,
      tagIds: [],
      attributes: { seats: 12 },
      closedAt: null,
    });
    expect(lead.stageEnteredAt).toBe(lead.createdAt);
    expect((await t.api.get(`${LEADS}/${lead._id}`)).body.data.lead).toEqual(lead);
    const created = await eventsOf(t.workspaceId, 'lead', lead._id);
    expect(created.map((e) => e.eventType)).toEqual(['crm.lead.created']);
    expect(created[0]!.data.lead).toEqual(lead);
  });

  it('refuses bad values, unknown links and unknown stages with 422 naming each field', async () => {
    const t = await tenant();
    const other = await tenant();
    const bad = await t.api.post(LEADS, {
      title: 'x',
      pipelineId: t.pipeline._id,
      value: { amount: 12.5, currency: 'usd' },
      expectedCloseDate: '2027-13-01',
    });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      'expectedCloseDate',
      'value.amount',
      'value.currency',
    ]);
    for (const [body, path] of [
      [{ customerId: other.customer._id }, 'customerId'],
      [{ conversationId: 'c'.repeat(24) }, 'conversationId'],
      [{ stageId: other.stage('New')._id }, 'stageId'],
      [{ pipelineId: other.pipeline._id }, 'pipelineId'],
      [{ lostReason: 'too pricey' }, 'lostReason'],
    ] as const) {
      const res = await t.api.post(LEADS, { title: 'x', pipelineId: t.pipeline._id, ...body });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors).toEqual([{ path, message: expect.any(String) }]);
    }
    expectError(await t.api.post(LEADS, { title: 'x' }), 400, 'BAD_REQUEST');
    expect((await t.api.get(LEADS)).body.data.pagination.total).toBe(0);
  });

  it('updates fields with one updated event carrying changes, assignment with one assigned event; a no-op PATCH emits nothing', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const lead = await t.lead({ value: { amount: 100, currency: 'USD' }, attributes: { plan: 'pro' } });
    const res = await t.api.patch(`${LEADS}/${lead._id}`, {
      title: 'Bigger plan',
      value: { amount: 250, currency: 'USD' },
      assigneeId: AGENT,
      attributes: { plan: null, seats: 3 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.lead).toMatchObject({
      title: 'Bigger plan',
      value: { amount: 250, currency: 'USD' },
      assigneeId: AGENT,
      attributes: { seats: 3 },
    });
    const same = await t.api.patch(`${LEADS}/${lead._id}`, { title: 'Bigger plan', assigneeId: AGENT });
    expect(same.body.data.lead.updatedAt).toBe(res.body.data.lead.updatedAt);
    const events = await eventsOf(t.workspaceId, 'lead', lead._id);
    // One PATCH wrote both events in one transaction (same time): their relative order is not defined.
    const byType = new Map(events.map((e) => [e.eventType, e]));
    expect(events.map((e) => e.eventType).sort()).toEqual(['crm.lead.assigned', 'crm.lead.created', 'crm.lead.updated']);
    expect(byType.get('crm.lead.updated')!.changes).toEqual({
      title: ['Annual plan', 'Bigger plan'],
      value: [
        { amount: 100, currency: 'USD' },
        { amount: 250, currency: 'USD' },
      ],
      attributes: [{ plan: 'pro' }, { seats: 3 }],
    });
    expect(byType.get('crm.lead.assigned')!.changes).toEqual({ assigneeId: [null, AGENT] });
    const summary = (await t.api.get(`${PIPELINES}/${t.pipeline._id}/summary`)).body.data.summary;
    expect(summary.values).toEqual([{ currency: 'USD', amount: 250, weightedAmount: 25 }]);
    expectError(await t.api.patch(`${LEADS}/${lead._id}`, { lostReason: 'nope' }), 422, 'VALIDATION_ERROR');
    expectError(await t.api.patch(`${LEADS}/${lead._id}`, { stageId: t.stage('Won')._id }), 422, 'VALIDATION_ERROR');
  });

  it('moves through stages, winning sets status and closedAt; losing keeps a lostReason; each move one stage_changed (+ won/lost) and one activity', async () => {
    const t = await tenant();
    const lead = await t.lead({ customerId: t.customer._id });
    const qualified = await t.move(lead._id, { stageId: t.stage('Qualified')._id });
    expect(qualified.body.data.lead).toMatchObject({ stageId: t.stage('Qualified')._id, status: 'open', closedAt: null });
    expectError(await t.move(lead._id, { stageId: t.stage('Qualified')._id }), 409, 'CONFLICT');
    expectError(await t.move(lead._id, { stageId: t.stage('Won')._id, lostReason: 'x' }), 422, 'VALIDATION_ERROR');
    const won = (await t.move(lead._id, { stageId: t.stage('Won')._id })).body.data.lead;
    expect(won).toMatchObject({ status: 'won', stageId: t.stage('Won')._id, lostReason: null });
    expect(won.closedAt).toBe(won.stageEnteredAt);
    const lost = (await t.move(lead._id, { stageId: t.stage('Lost')._id, lostReason: 'Went with a competitor' })).body.data.lead;
    expect(lost).toMatchObject({ status: 'lost', lostReason: 'Went with a competitor' });
    const reopened = (await t.move(lead._id, { stageId: t.stage('Proposal')._id })).body.data.lead;
    expect(reopened).toMatchObject({ status: 'open', closedAt: null, lostReason: null });

    const events = await outboxEvents(t.workspaceId);
    const count = (type: string) => events.filter((e) => e.eventType === type && (e.data.lead as { _id: string })._id === lead._id).length;
    expect([count('crm.lead.created'), count('crm.lead.stage_changed'), count('crm.lead.won'), count('crm.lead.lost')]).toEqual([
      1, 4, 1, 1,
    ]);
    const changed = events.filter((e) => e.eventType === 'crm.lead.stage_changed');
    expect(changed.map((e) => e.changes!.stageId)).toEqual([
      [t.stage('New')._id, t.stage('Qualified')._id],
      [t.stage('Qualified')._id, t.stage('Won')._id],
      [t.stage('Won')._id, t.stage('Lost')._id],
      [t.stage('Lost')._id, t.stage('Proposal')._id],
    ]);
    expect(changed[1]!.changes!.status).toEqual(['open', 'won']);
    expect(events.find((e) => e.eventType === 'crm.lead.lost')!.changes).toEqual({
      status: ['won', 'lost'],
      closedAt: [won.closedAt, lost.closedAt],
    });
    const added = events.filter((e) => e.eventType === 'crm.activity.added');
    expect(added).toHaveLength(4);
    const timeline = (await t.api.get(`${LEADS}/${lead._id}/activities`)).body.data;
    expect(timeline.pagination.total).toBe(4);
    expect(timeline.activities[0]).toMatchObject({
      type: 'stage_change',
      leadId: lead._id,
      customerId: t.customer._id,
      subject: 'Moved to Proposal',
      details: { fromStageId: t.stage('Lost')._id, toStageId: t.stage('Proposal')._id },
    });
    const customerTimeline = (await t.api.get(`${CUSTOMERS}/${t.customer._id}/activities`)).body.data;
    expect(customerTimeline.activities.map((a: { _id: string }) => a._id)).toEqual(timeline.activities.map((a: { _id: string }) => a._id));
  });

  it('records the stage history across several moves: each stay with its start, end and duration, oldest first', async () => {
    const t = await tenant();
    const lead = await t.lead();
    await sleep(1100);
    const q = (await t.move(lead._id, { stageId: t.stage('Qualified')._id })).body.data.lead;
    await sleep(1100);
    const p = (await t.move(lead._id, { stageId: t.stage('Proposal')._id })).body.data.lead;
    const w = (await t.move(lead._id, { stageId: t.stage('Won')._id })).body.data.lead;
    const res = await t.api.get(`${LEADS}/${lead._id}/stage-history`);
    expect(res.status).toBe(200);
    const { history, pagination } = res.body.data;
    expect(pagination.total).toBe(4);
    expect(history).toEqual([
      {
        pipelineId: t.pipeline._id,
        stageId: t.stage('New')._id,
        enteredAt: lead.createdAt,
        exitedAt: q.stageEnteredAt,
        durationSeconds: Math.round((Date.parse(q.stageEnteredAt) - Date.parse(lead.createdAt)) / 1000),
      },
      {
        pipelineId: t.pipeline._id,
        stageId: t.stage('Qualified')._id,
        enteredAt: q.stageEnteredAt,
        exitedAt: p.stageEnteredAt,
        durationSeconds: Math.round((Date.parse(p.stageEnteredAt) - Date.parse(q.stageEnteredAt)) / 1000),
      },
      {
        pipelineId: t.pipeline._id,
        stageId: t.stage('Proposal')._id,
        enteredAt: p.stageEnteredAt,
        exitedAt: w.stageEnteredAt,
        durationSeconds: expect.any(Number),
      },
      { pipelineId: t.pipeline._id, stageId: t.stage('Won')._id, enteredAt: w.stageEnteredAt, exitedAt: null, durationSeconds: null },
    ]);
    expect(history[0].durationSeconds).toBeGreaterThanOrEqual(1);
    const page = await t.api.get(`${LEADS}/${lead._id}/stage-history?limit=3`);
    const rest = await t.api.get(`${LEADS}/${lead._id}/stage-history?limit=3&cursor=${page.body.data.pagination.nextCursor}`);
    expect([...page.body.data.history, ...rest.body.data.history]).toEqual(history);
    // By number: the stays left fill page 1 of 3, the current stay is page 2 alone, and page 3 is empty.
    const byNumber = async (n: number) => (await t.api.get(`${LEADS}/${lead._id}/stage-history?limit=3&page=${n}`)).body.data.history;
    expect([await byNumber(1), await byNumber(2), await byNumber(3)]).toEqual([history.slice(0, 3), history.slice(3), []]);

    // A move that wrote the stay it leaves and never committed: that item is at the lead's count, and not read.
    const stray = { pk: leadKey(t.tenant, lead._id).pk, sk: 'STAY#000004' };
    await dynamo().send(
      new PutCommand({
        TableName: config().TABLE_NAME,
        Item: { ...stray, type: 'STAGE_STAY', pipelineId: 'x', stageId: 'y', enteredAt: w.createdAt },
      }),
    );
    expect((await t.api.get(`${LEADS}/${lead._id}/stage-history`)).body.data.history).toEqual(history);
    // The next move writes that stay again, as it is.
    const l = (await t.move(lead._id, { stageId: t.stage('Lost')._id, lostReason: 'budget' })).body.data.lead;
    const after = (await t.api.get(`${LEADS}/${lead._id}/stage-history?limit=3`)).body.data;
    const tail = (await t.api.get(`${LEADS}/${lead._id}/stage-history?limit=3&page=2`)).body.data.history;
    expect(after.pagination.total).toBe(5);
    expect(tail).toEqual([
      { ...history[3], exitedAt: l.stageEnteredAt, durationSeconds: expect.any(Number) },
      { pipelineId: t.pipeline._id, stageId: t.stage('Lost')._id, enteredAt: l.stageEnteredAt, exitedAt: null, durationSeconds: null },
    ]);
  });

  it('reads stays and status counts stored before a stay derived its end and status lists shared a counter', async () => {
    const t = await tenant();
    const lead = await t.lead();
    const q = (await t.move(lead._id, { stageId: t.stage('Qualified')._id })).body.data.lead;
    const history = (await t.api.get(`${LEADS}/${lead._id}/stage-history`)).body.data.history;
    // As stored before: the stay a move left holds its exitedAt, the current one exitedAt null; the open leads
    // counted on `leads:status:open`'s own item.
    const update = (key: { pk: string; sk: string }, expression: string, values: Record<string, unknown>, names?: Record<string, string>) =>
      dynamo().send(
        new UpdateCommand({
          TableName: config().TABLE_NAME,
          Key: key,
          UpdateExpression: expression,
          ExpressionAttributeValues: values,
          ExpressionAttributeNames: names,
        }),
      );
    const stay = (n: number) => ({ pk: leadKey(t.tenant, lead._id).pk, sk: `STAY#00000${n}` });
    await update(stay(1), 'SET exitedAt = :at', { ':at': q.stageEnteredAt });
    await update(stay(2), 'SET exitedAt = :none', { ':none': null });
    await update(workspaceCounter(t.tenant, 'leads:status'), 'ADD #open :minus', { ':minus': -1 }, { '#open': 'open' });
    await update(workspaceCounter(t.tenant, 'leads:status:open'), 'ADD n :one', { ':one': 1 });
    expect((await t.api.get(`${LEADS}/${lead._id}/stage-history`)).body.data.history).toEqual(history);
    await t.move(lead._id, { stageId: t.stage('Proposal')._id });
    const after = (await t.api.get(`${LEADS}/${lead._id}/stage-history`)).body.data.history;
    expect(after.map((s: { exitedAt: string | null }) => s.exitedAt)).toEqual([q.stageEnteredAt, after[2].enteredAt, null]);
    for (const query of ['status=open', '', `pipelineId=${t.pipeline._id}&status=open`]) {
      expect((await t.api.get(`${LEADS}?${query}`)).body.data.pagination.total, query).toBe(1);
    }
    // A stage named alone, on a page past its end: its count is read without a lead on the page to name its pipeline.
    expect((await t.api.get(`${LEADS}?stageId=${t.stage('Proposal')._id}&page=3`)).body.data.pagination.total).toBe(1);
    expect((await t.api.get(`${LEADS}?stageId=${t.stage('Proposal')._id}`)).body.data.pagination.total).toBe(1);
  });

  it('reads leads and activities stored before their stage list and timelines were index entries, and moves them over on their next change', async () => {
    const t = await tenant();
    const old = await t.lead({ customerId: t.customer._id });
    const note = (await t.api.post('/api/v1/crm/activities', { type: 'note', leadId: old._id, body: 'stored before' })).body.data.activity;
    const fresh = await t.lead();
    // As stored before: no index entries, a membership item in the stage's list and in every merged list, the note in both timelines.
    const strip = (key: { pk: string; sk: string }, attributes: string) =>
      dynamo().send(new UpdateCommand({ TableName: config().TABLE_NAME, Key: key, UpdateExpression: `REMOVE ${attributes}` }));
    await strip(leadKey(t.tenant, old._id), 'gsi1pk, gsi1sk');
    await strip({ pk: `WS#${t.tenant}#ACTIVITY#${note._id}`, sk: 'ACTIVITY' }, 'gsi1pk, gsi1sk, gsi2pk, gsi2sk');
    const lists = ['all', `pipeline:${t.pipeline._id}`, 'assignee:none', `stage:${old.stageId}`];
    const timelines = [`lead:${old._id}`, `customer:${t.customer._id}`];
    for (const item of [
      ...membershipItems(t.tenant, 'lead', old._id, byCreation(lists, old)),
      ...membershipItems(t.tenant, 'activity', note._id, placedAt(timelines, note.occurredAt, note._id)),
    ])
      await dynamo().send(new PutCommand({ TableName: config().TABLE_NAME, Item: item }));
    const stageList = `${LEADS}?stageId=${old.stageId}&limit=1`;
    const first = (await t.api.get(stageList)).body.data;
    expect([first.leads[0]._id, first.pagination.total]).toEqual([fresh._id, 2]);
    expect(ids(await t.api.get(`${stageList}&cursor=${first.pagination.nextCursor}`))).toEqual([old._id]);
    expect(ids(await t.api.get(`${stageList}&page=2`))).toEqual([old._id]);
    for (const query of ['', `pipelineId=${t.pipeline._id}`, 'assigneeId=none']) {
      const page = (await t.api.get(`${LEADS}?${query}`)).body.data;
      expect([page.leads.map((l: { _id: string }) => l._id), page.pagination.total], query).toEqual([[fresh._id, old._id], 2]);
    }
    await t.move(old._id, { stageId: t.stage('Qualified')._id });
    const stored = await dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': `WS#${t.tenant}#LEADLIST#stage:${old.stageId}` },
      }),
    );
    expect(stored.Items).toEqual([]);
    expect(ids(await t.api.get(`${LEADS}?stageId=${t.stage('Qualified')._id}`))).toEqual([old._id]);
    expect((await t.api.get(`${LEADS}?stageId=${old.stageId}`)).body.data.pagination.total).toBe(1);
    for (const path of [`${LEADS}/${old._id}/activities`, `${CUSTOMERS}/${t.customer._id}/activities`]) {
      const timeline = (await t.api.get(`${path}?limit=1`)).body.data;
      expect([timeline.activities[0].type, timeline.pagination.total], path).toEqual(['stage_change', 2]);
      const next = (await t.api.get(`${path}?limit=1&cursor=${timeline.pagination.nextCursor}`)).body.data;
      expect([next.activities.map((a: { _id: string }) => a._id), next.pagination.nextCursor], path).toEqual([[note._id], null]);
    }
    expect((await t.api.delete(`/api/v1/crm/activities/${note._id}`)).status).toBe(200);
    for (const path of [`${LEADS}/${old._id}/activities`, `${CUSTOMERS}/${t.customer._id}/activities`])
      expect((await t.api.get(path)).body.data.pagination.total, path).toBe(1);
  });

  it('moves a lead into another pipeline when the move names it', async () => {
    const t = await tenant();
    const other = await makePipeline(t.api, { name: 'Renewals' });
    const lead = await t.lead({ value: { amount: 900, currency: 'GBP' } });
    expectError(await t.move(lead._id, { stageId: other.stage('Qualified')._id }), 422, 'VALIDATION_ERROR');
    const moved = (await t.move(lead._id, { stageId: other.stage('Qualified')._id, pipelineId: other.pipeline._id })).body.data.lead;
    expect(moved).toMatchObject({ pipelineId: other.pipeline._id, stageId: other.stage('Qualified')._id });
    expect((await t.api.get(`${PIPELINES}/${t.pipeline._id}/summary`)).body.data.summary.count).toBe(0);
    expect((await t.api.get(`${PIPELINES}/${other.pipeline._id}/summary`)).body.data.summary.values).toEqual([
      { currency: 'GBP', amount: 900, weightedAmount: 270 },
    ]);
    expect(ids(await t.api.get(`${LEADS}?pipelineId=${other.pipeline._id}`))).toEqual([lead._id]);
    expect((await t.api.get(`${LEADS}?pipelineId=${t.pipeline._id}`)).body.data.pagination.total).toBe(0);
    const [event] = await eventsOf(t.workspaceId, 'lead', lead._id, 'crm.lead.stage_changed');
    expect(event!.changes!.pipelineId).toEqual([t.pipeline._id, other.pipeline._id]);
  });

  it('lists by pipeline, stage, status, assignee, customer and tag with exact totals, newest first, by page and by cursor', async () => {
    const t = await tenant();
    const AGENT = await agentId(t.api);
    const a = await t.lead({ customerId: t.customer._id, assigneeId: AGENT });
    const b = await t.lead({ stageId: t.stage('Qualified')._id });
    const c = await t.lead({ stageId: t.stage('Won')._id, assigneeId: AGENT });
    const tag = await create(t.api, '/api/v1/tags', { name: 'hot' }, 'tag');
    expect((await t.api.post(`${LEADS}/${b._id}/tags`, { tagIds: [tag._id] })).status).toBe(200);
    const cases: [string, string[]][] = [
      ['', [c._id, b._id, a._id]],
      [`pipelineId=${t.pipeline._id}`, [c._id, b._id, a._id]],
      [`pipelineId=${t.pipeline._id}&status=open`, [b._id, a._id]],
      [`stageId=${t.stage('Qualified')._id}`, [b._id]],
      [`pipelineId=${t.pipeline._id}&stageId=${t.stage('Won')._id}`, [c._id]],
      ['status=won', [c._id]],
      [`assigneeId=${AGENT}`, [c._id, a._id]],
      [`assigneeId=${AGENT}&status=open`, [a._id]],
      ['assigneeId=none', [b._id]],
      [`customerId=${t.customer._id}`, [a._id]],
      [`tagId=${tag._id}`, [b._id]],
    ];
    for (const [query, expected] of cases) {
      const res = await t.api.get(`${LEADS}?${query}`);
      expect(ids(res), query).toEqual(expected);
      expect(res.body.data.pagination.total, query).toBe(expected.length);
    }
    const page2 = await t.api.get(`${LEADS}?limit=2&page=2`);
    expect(ids(page2)).toEqual([a._id]);
    expect(page2.body.data.pagination).toMatchObject({ total: 3, page: 2, limit: 2, pages: 2, hasMore: false });
    const first = await t.api.get(`${LEADS}?limit=2`);
    expect(ids(await t.api.get(`${LEADS}?limit=2&cursor=${first.body.data.pagination.nextCursor}`))).toEqual([a._id]);
    for (const query of [`status=open&customerId=${t.customer._id}`, `tagId=${tag._id}&status=open`, 'status=closed', 'limit=101']) {
      expectError(await t.api.get(`${LEADS}?${query}`), 422, 'VALIDATION_ERROR');
    }
    const mismatch = await t.api.get(`${LEADS}?pipelineId=${t.pipeline._id}&stageId=${'d'.repeat(24)}`);
    expectError(mismatch, 422, 'VALIDATION_ERROR');
  });

  it('deletes a lead with its lists, counters and tags, one deleted event; its activities stay on the customer timeline', async () => {
    const t = await tenant();
    const lead = await t.lead({ customerId: t.customer._id, value: { amount: 500, currency: 'USD' } });
    await t.move(lead._id, { stageId: t.stage('Qualified')._id });
    await t.move(lead._id, { stageId: t.stage('Proposal')._id });
    await t.move(lead._id, { stageId: t.stage('Qualified')._id });
    const tag = await create(t.api, '/api/v1/tags', { name: 'hot' }, 'tag');
    await t.api.post(`${LEADS}/${lead._id}/tags`, { tagIds: [tag._id] });
    const res = await t.api.delete(`${LEADS}/${lead._id}`);
    expect(res.status).toBe(200);
    expect(res.body.data.lead).toMatchObject({ _id: lead._id, tagIds: [tag._id] });
    expectError(await t.api.get(`${LEADS}/${lead._id}`), 404, 'NOT_FOUND');
    expectError(await t.api.get(`${LEADS}/${lead._id}/stage-history`), 404, 'NOT_FOUND');
    expectError(await t.api.delete(`${LEADS}/${lead._id}`), 404, 'NOT_FOUND');
    // Its four stays went in the delete's transaction: nothing is left under the lead's partition.
    const left = await dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': leadKey(t.tenant, lead._id).pk },
        ConsistentRead: true,
        Select: 'COUNT',
      }),
    );
    expect(left.Count).toBe(0);
    for (const q of ['', `tagId=${tag._id}`, `customerId=${t.customer._id}`, `stageId=${t.stage('Qualified')._id}`]) {
      expect((await t.api.get(`${LEADS}?${q}`)).body.data.pagination.total, q).toBe(0);
    }
    expect((await t.api.get(`/api/v1/tags/${tag._id}`)).body.data.tag.counts).toMatchObject({ lead: 0 });
    expect((await t.api.get(`${PIPELINES}/${t.pipeline._id}/summary`)).body.data.summary).toMatchObject({ count: 0, values: [] });
    expect(await eventsOf(t.workspaceId, 'lead', lead._id, 'crm.lead.deleted')).toHaveLength(1);
    // One stage_change activity per move.
    expect((await t.api.get(`${CUSTOMERS}/${t.customer._id}/activities`)).body.data.pagination.total).toBe(3);
  });

  it('tags leads one by one and in bulk, with crm.lead.tagged/untagged events and the tag counts', async () => {
    const t = await tenant();
    const [a, b] = [await t.lead(), await t.lead()];
    const tag = await create(t.api, '/api/v1/tags', { name: 'enterprise' }, 'tag');
    const bulk = await t.api.post('/api/v1/tags/bulk', { entityType: 'lead', entityIds: [a._id, b._id], tagIds: [tag._id] });
    expect(bulk.status, JSON.stringify(bulk.body)).toBe(200);
    expect(bulk.body.data.bulk.changed).toEqual([a._id, b._id]);
    expect((await t.api.get(`${LEADS}/${a._id}`)).body.data.lead.tagIds).toEqual([tag._id]);
    expect((await t.api.get(`${LEADS}/${a._id}/tags`)).body.data.tags.map((x: { _id: string }) => x._id)).toEqual([tag._id]);
    expect((await t.api.get(`/api/v1/tags/${tag._id}`)).body.data.tag.counts).toMatchObject({ lead: 2 });
    expect((await t.api.delete(`${LEADS}/${a._id}/tags/${tag._id}`)).body.data).toMatchObject({ tag: { _id: tag._id }, deleted: true });
    const other = await tenant();
    const res = await t.api.post('/api/v1/tags/bulk', { entityType: 'lead', entityIds: [(await other.lead())._id], tagIds: [tag._id] });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors).toEqual([{ path: 'entityIds[0]', message: 'No such lead in this workspace' }]);
    const tagged = await eventsOf(t.workspaceId, 'lead', a._id);
    expect(tagged.map((e) => e.eventType)).toEqual(['crm.lead.created', 'crm.lead.tagged', 'crm.lead.untagged']);
    expect(tagged[1]!.changes).toEqual({ tagIds: [[], [tag._id]] });
    // Deleting the tag detaches it from the lead still carrying it, with its event.
    expect((await t.api.delete(`/api/v1/tags/${tag._id}`)).status).toBe(200);
    expect((await t.api.get(`${LEADS}/${b._id}`)).body.data.lead.tagIds).toEqual([]);
    expect(await eventsOf(t.workspaceId, 'lead', b._id, 'crm.lead.untagged')).toHaveLength(1);
  });

  it('answers 404 for another workspace’s lead on every lead route, and leaves it untouched', async () => {
    const t = await tenant();
    const other = await tenant();
    const theirs = await other.lead();
    for (const res of [
      await t.api.get(`${LEADS}/${theirs._id}`),
      await t.api.patch(`${LEADS}/${theirs._id}`, { title: 'mine' }),
      await t.move(theirs._id, { stageId: t.stage('Won')._id }),
      await t.api.get(`${LEADS}/${theirs._id}/stage-history`),
      await t.api.get(`${LEADS}/${theirs._id}/activities`),
      await t.api.delete(`${LEADS}/${theirs._id}`),
      await t.api.get(`${PIPELINES}/${other.pipeline._id}`),
      await t.api.get(`${PIPELINES}/${other.pipeline._id}/summary`),
    ]) {
      expectError(res, 404, 'NOT_FOUND');
    }
    expect((await other.api.get(`${LEADS}/${theirs._id}`)).body.data.lead).toEqual(theirs);
  });

  it('needs crm:create to create, crm:update to update and move, crm:delete to delete; crm:read only reads', async () => {
    const t = await tenant();
    const lead = await t.lead();
    const as = async (scope: 'crm:read' | 'crm:create' | 'crm:update' | 'crm:delete') =>
      client(env.stack.baseUrl, { token: (await tokenFor([t.workspaceId], [scope])).token, workspaceId: t.workspaceId });
    const [reader, creator, updater, deleter] = await Promise.all([as('crm:read'), as('crm:create'), as('crm:update'), as('crm:delete')]);
    const body = { title: 'x', pipelineId: t.pipeline._id };
    const calls = {
      create: (api: typeof reader) => api.post(LEADS, body),
      update: (api: typeof reader) => api.patch(`${LEADS}/${lead._id}`, { title: `t${Math.random()}` }),
      move: (api: typeof reader) => api.post(`${LEADS}/${lead._id}/move`, { stageId: t.stage('Proposal')._id }),
      read: (api: typeof reader) => api.get(`${LEADS}/${lead._id}`),
    };
    for (const api of [reader, updater, deleter]) expectError(await calls.create(api), 403, 'FORBIDDEN');
    for (const api of [reader, creator, deleter]) {
      expectError(await calls.update(api), 403, 'FORBIDDEN');
      expectError(await calls.move(api), 403, 'FORBIDDEN');
    }
    for (const api of [reader, creator, updater]) expectError(await api.delete(`${LEADS}/${lead._id}`), 403, 'FORBIDDEN');
    for (const api of [creator, updater, deleter]) expectError(await calls.read(api), 403, 'FORBIDDEN');
    expect((await calls.read(reader)).status).toBe(200);
    expect((await calls.create(creator)).status).toBe(201);
    expect((await calls.update(updater)).status).toBe(200);
    expect((await calls.move(updater)).status).toBe(200);
    expect((await deleter.delete(`${LEADS}/${lead._id}`)).status).toBe(200);
  });
});
