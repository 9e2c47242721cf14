import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { expectError, type Client } from '../support/api';
import { create, eventsOf, LEADS, makePipeline, PIPELINES, type StageView } from '../support/crm';
import { useTestStack } from '../support/stack';

const env = useTestStack({ workers: false });

const kinds = (stages: StageView[]) => stages.map((s) => `${s.name}:${s.kind}:${s.probability}:${s.position}`);

describe('pipelines and stages', () => {
  it('creates a pipeline with default stages, gets, lists and renames it, one event each', async () => {
    const { api, workspaceId } = await env.tenant();
    const { pipeline } = await makePipeline(api);
    expect(kinds(pipeline.stages)).toEqual([
      'New:open:0.1:0',
      'Qualified:open:0.3:1',
      'Proposal:open:0.6:2',
      'Won:won:1:3',
      'Lost:lost:0:4',
    ]);
    expect((await api.get(`${PIPELINES}/${pipeline._id}`)).body.data.pipeline).toEqual(pipeline);
    const second = await create(api, PIPELINES, { name: 'Renewals', stages: [{ name: 'Due', probability: 0.9 }] }, 'pipeline');
    expect(kinds(second.stages)).toEqual(['Due:open:0.9:0', 'Won:won:1:1', 'Lost:lost:0:2']);
    const list = await api.get(`${PIPELINES}?limit=1`);
    expect(list.body.data.pipelines.map((p: { _id: string }) => p._id)).toEqual([pipeline._id]);
    expect(list.body.data.pagination).toMatchObject({ total: 2, hasMore: true });
    const next = await api.get(`${PIPELINES}?limit=1&cursor=${list.body.data.pagination.nextCursor}`);
    expect(next.body.data.pipelines.map((p: { _id: string }) => p._id)).toEqual([second._id]);

    const renamed = await api.patch(`${PIPELINES}/${pipeline._id}`, { name: 'New business' });
    expect(renamed.body.data.pipeline.name).toBe('New business');
    expect((await api.patch(`${PIPELINES}/${pipeline._id}`, { name: 'New business' })).body.data.pipeline.updatedAt).toBe(
      renamed.body.data.pipeline.updatedAt,
    );
    expect(await eventsOf(workspaceId, 'pipeline', pipeline._id, 'crm.pipeline.created')).toHaveLength(1);
    const updated = await eventsOf(workspaceId, 'pipeline', pipeline._id, 'crm.pipeline.updated');
    expect(updated).toHaveLength(1);
    expect(updated[0]!.changes).toEqual({ name: ['Sales', 'New business'] });
  });

  it('adds missing open, won and lost stages, and refuses two won stages or duplicate names with 422 on stages', async () => {
    const { api } = await env.tenant();
    const only = await create(api, PIPELINES, { name: 'Only won', stages: [{ name: 'Done', kind: 'won' }] }, 'pipeline');
    expect(kinds(only.stages)).toEqual(['New:open:0.5:0', 'Done:won:1:1', 'Lost:lost:0:2']);
    for (const stages of [
      [
        { name: 'A', kind: 'won' },
        { name: 'B', kind: 'won' },
      ],
      [{ name: 'A' }, { name: 'a' }],
    ]) {
      const res = await api.post(PIPELINES, { name: 'Bad', stages });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.errors).toEqual([{ path: 'stages', message: expect.any(String) }]);
    }
    const res = await api.post(PIPELINES, { name: 'Bad', stages: [{ name: 'A', probability: 2, kind: 'maybe' }] });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.errors.map((e: { path: string }) => e.path).sort()).toEqual(['stages[0].kind', 'stages[0].probability']);
  });

  it('adds, edits, reorders and deletes stages, each one pipeline.updated event with changes.stages', async () => {
    const { api, workspaceId } = await env.tenant();
    const { pipeline, stage } = await makePipeline(api);
    const added = await api.post(`${PIPELINES}/${pipeline._id}/stages`, { name: 'Negotiation', probability: 0.8 });
    expect(added.status).toBe(201);
    expect(kinds(added.body.data.pipeline.stages)).toEqual([
      'New:open:0.1:0',
      'Qualified:open:0.3:1',
      'Proposal:open:0.6:2',
      'Negotiation:open:0.8:3',
      'Won:won:1:4',
      'Lost:lost:0:5',
    ]);
    const negotiation = added.body.data.pipeline.stages[3] as StageView;
    const edited = await api.patch(`${PIPELINES}/${pipeline._id}/stages/${negotiation._id}`, { name: 'Negotiating', probability: 0.75 });
    expect(edited.status).toBe(200);
    const order = [stage('Proposal')._id, stage('New')._id, stage('Qualified')._id, negotiation._id, stage('Won')._id, stage('Lost')._id];
    const reordered = await api.post(`${PIPELINES}/${pipeline._id}/stages/reorder`, { stageIds: order });
    expect(reordered.body.data.pipeline.stages.map((s: StageView) => s._id)).toEqual(order);
    expect(reordered.body.data.pipeline.stages.map((s: StageView) => s.position)).toEqual([0, 1, 2, 3, 4, 5]);
    const bad = await api.post(`${PIPELINES}/${pipeline._id}/stages/reorder`, { stageIds: [order[0], order[0], 'f'.repeat(24)] });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.errors.map((e: { path: string }) => e.path)).toEqual(['stageIds[1]', 'stageIds[2]']);
    const removed = await api.delete(`${PIPELINES}/${pipeline._id}/stages/${negotiation._id}`);
    expect(removed.body.data).toMatchObject({ stage: { _id: negotiation._id, name: 'Negotiating', probability: 0.75 }, deleted: true });
    const after = (await api.get(`${PIPELINES}/${pipeline._id}`)).body.data.pipeline;
    expect(after.stages.map((s: StageView) => s._id)).not.toContain(negotiation._id);
    expectError(await api.delete(`${PIPELINES}/${pipeline._id}/stages/${negotiation._id}`), 404, 'NOT_FOUND');

    const events = await eventsOf(workspaceId, 'pipeline', pipeline._id, 'crm.pipeline.updated');
    expect(events).toHaveLength(4);
    for (const e of events) expect(Object.keys(e.changes!)).toEqual(['stages']);
    expect((events[1]!.changes!.stages as [StageView[], StageView[]])[1].find((s) => s._id === negotiation._id)).toMatchObject({
      name: 'Negotiating',
      probability: 0.75,
    });
  });

  it('refuses to remove the won or lost stage or the last open one, or a second won stage (409)', async () => {
    const { api } = await env.tenant();
    const pipeline = await create(api, PIPELINES, { name: 'Lean', stages: [{ name: 'Only' }] }, 'pipeline');
    const [only, won, lost] = pipeline.stages as StageView[];
    for (const s of [only!, won!, lost!]) expectError(await api.delete(`${PIPELINES}/${pipeline._id}/stages/${s._id}`), 409, 'CONFLICT');
    expectError(await api.post(`${PIPELINES}/${pipeline._id}/stages`, { name: 'Also won', kind: 'won' }), 409, 'CONFLICT');
    expectError(await api.patch(`${PIPELINES}/${pipeline._id}/stages/${only!._id}`, { kind: 'lost' }), 409, 'CONFLICT');
  });

  it('refuses with 409 to delete a stage or pipeline holding leads, or to change the kind of such a stage; empty ones go', async () => {
    const { api, workspaceId } = await env.tenant();
    const { pipeline, stage } = await makePipeline(api);
    const lead = await create(api, LEADS, { title: 'Deal', pipelineId: pipeline._id, stageId: stage('Qualified')._id }, 'lead');
    expectError(await api.delete(`${PIPELINES}/${pipeline._id}/stages/${stage('Qualified')._id}`), 409, 'CONFLICT');
    expectError(await api.patch(`${PIPELINES}/${pipeline._id}/stages/${stage('Qualified')._id}`, { kind: 'won' }), 409, 'CONFLICT');
    expectError(await api.delete(`${PIPELINES}/${pipeline._id}`), 409, 'CONFLICT');
    expect((await api.get(`${PIPELINES}/${pipeline._id}`)).body.data.pipeline.stages).toHaveLength(5);
    expect((await api.delete(`${PIPELINES}/${pipeline._id}/stages/${stage('New')._id}`)).status).toBe(200);
    expect((await api.delete(`${LEADS}/${lead._id}`)).status).toBe(200);
    const gone = await api.delete(`${PIPELINES}/${pipeline._id}`);
    expect(gone.status).toBe(200);
    expectError(await api.get(`${PIPELINES}/${pipeline._id}`), 404, 'NOT_FOUND');
    expect((await api.get(PIPELINES)).body.data.pagination.total).toBe(0);
    expect(await eventsOf(workspaceId, 'pipeline', pipeline._id, 'crm.pipeline.deleted')).toHaveLength(1);
  });

  it('summarises each stage: count, summed value and probability-weighted value per currency', async () => {
    const { api } = await env.tenant();
    const { pipeline, stage } = await makePipeline(api);
    const lead = (title: string, stageName: string, value?: { amount: number; currency: string }) =>
      create(api, LEADS, { title, pipelineId: pipeline._id, stageId: stage(stageName)._id, ...(value ? { value } : {}) }, 'lead');
    await lead('a', 'Qualified', { amount: 10_000, currency: 'USD' });
    await lead('b', 'Qualified', { amount: 5_001, currency: 'USD' });
    await lead('c', 'Qualified', { amount: 7_000, currency: 'EUR' });
    await lead('d', 'Proposal');
    await lead('e', 'Won', { amount: 2_500, currency: 'USD' });
    const summary = (await api.get(`${PIPELINES}/${pipeline._id}/summary`)).body.data.summary;
    expect(summary.count).toBe(5);
    const byName = Object.fromEntries(summary.stages.map((s: { name: string }) => [s.name, s]));
    expect(byName.Qualified).toMatchObject({
      count: 3,
      probability: 0.3,
      values: [
        { currency: 'EUR', amount: 7000, weightedAmount: 2100 },
        { currency: 'USD', amount: 15001, weightedAmount: 4500 },
      ],
    });
    expect(byName.Proposal).toMatchObject({ count: 1, values: [] });
    expect(byName.Won).toMatchObject({ count: 1, kind: 'won', values: [{ currency: 'USD', amount: 2500, weightedAmount: 2500 }] });
    expect(byName.New).toMatchObject({ count: 0, values: [] });
    expect(summary.values).toEqual([
      { currency: 'EUR', amount: 7000, weightedAmount: 2100 },
      { currency: 'USD', amount: 17501, weightedAmount: 7000 },
    ]);
    await api.patch(`${PIPELINES}/${pipeline._id}/stages/${stage('Qualified')._id}`, { probability: 0.5 });
    const after = (await api.get(`${PIPELINES}/${pipeline._id}/summary`)).body.data.summary;
    expect(after.stages.find((s: { name: string }) => s.name === 'Qualified').values[1]).toEqual({
      currency: 'USD',
      amount: 15001,
      weightedAmount: 7501,
    });
  });
});

describe("a pipeline's stage counts", () => {
  const ACTIVITIES = '/api/v1/crm/activities';
  const activityTotal = async (api: Client) => (await api.get(`${ACTIVITIES}?limit=1`)).body.data.pagination.total as number;

  it("counts its moves' activities on its counts item, and hands them to the timeline's total when it is deleted", async () => {
    const { api } = await env.tenant();
    const { pipeline, stage } = await makePipeline(api);
    const lead = await create(api, LEADS, { title: 'Acme', pipelineId: pipeline._id }, 'lead');
    await api.post(`${ACTIVITIES}`, { type: 'note', leadId: lead._id, body: 'called' });
    for (const name of ['Qualified', 'Proposal'])
      expect((await api.post(`${LEADS}/${lead._id}/move`, { stageId: stage(name)._id })).status).toBe(200);
    expect(await activityTotal(api)).toBe(3);
    expect((await api.get(`${ACTIVITIES}?limit=10`)).body.data.activities).toHaveLength(3);
    expect((await api.delete(`${LEADS}/${lead._id}`)).status).toBe(200);
    expect((await api.delete(`${PIPELINES}/${pipeline._id}`)).status).toBe(200);
    expect(await activityTotal(api)).toBe(3);
  });

  it('keeps counting a pipeline stored before its counts item on its stage items', async () => {
    const { api, tenant } = await env.tenant();
    const { pipeline, stage } = await makePipeline(api);
    // As stored before: one item per stage, no counts item, the pipeline item without `countsItem`.
    const table = config().TABLE_NAME;
    const pk = `WS#${tenant}#PIPELINE#${pipeline._id}`;
    await dynamo().send(new DeleteCommand({ TableName: table, Key: { pk: `WS#${tenant}#PIPELINECOUNTS`, sk: pipeline._id } }));
    await dynamo().send(new UpdateCommand({ TableName: table, Key: { pk, sk: 'PIPELINE' }, UpdateExpression: 'REMOVE countsItem' }));
    for (const s of pipeline.stages as StageView[])
      await dynamo().send(new PutCommand({ TableName: table, Item: { pk, sk: `STAGE#${s._id}`, type: 'STAGE', kind: s.kind, n: 0 } }));

    const value = { amount: 500, currency: 'EUR' };
    const a = await create(api, LEADS, { title: 'A', pipelineId: pipeline._id, value }, 'lead');
    const b = await create(api, LEADS, { title: 'B', pipelineId: pipeline._id }, 'lead');
    expect((await api.post(`${LEADS}/${a._id}/move`, { stageId: stage('Won')._id })).status).toBe(200);
    const summary = (await api.get(`${PIPELINES}/${pipeline._id}/summary`)).body.data.summary;
    const counts = Object.fromEntries(summary.stages.map((s: { name: string; count: number }) => [s.name, s.count]));
    expect(counts).toEqual({ New: 1, Qualified: 0, Proposal: 0, Won: 1, Lost: 0 });
    expect(summary.values).toEqual([{ currency: 'EUR', amount: 500, weightedAmount: 500 }]);
    const total = async (query: string) => (await api.get(`${LEADS}?${query}`)).body.data.pagination.total as number;
    expect(await total(`pipelineId=${pipeline._id}`)).toBe(2);
    expect(await total(`pipelineId=${pipeline._id}&status=won`)).toBe(1);
    expect(await total(`pipelineId=${pipeline._id}&stageId=${stage('New')._id}`)).toBe(1);
    expect(await activityTotal(api)).toBe(1);
    expectError(await api.delete(`${PIPELINES}/${pipeline._id}/stages/${stage('New')._id}`), 409, 'CONFLICT');
    for (const lead of [a, b]) expect((await api.delete(`${LEADS}/${lead._id}`)).status).toBe(200);
    expect((await api.delete(`${PIPELINES}/${pipeline._id}`)).status).toBe(200);
    const left = await dynamo().send(
      new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } }),
    );
    expect(left.Items).toEqual([]);
    expect(await activityTotal(api)).toBe(1);
  });
});
