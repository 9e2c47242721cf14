import { describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/api';
import { LEADS, makePipeline, PIPELINES, type StageView } from '../support/crm';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';

const env = useTestStack({ workers: false });

/**
 * Sends again, after its Retry-After, a request told 429: the contract's answer to contention that outlasted
 * the server's own retries (nothing was written). Any other answer is the request's.
 */
const answered = async (send: () => Promise<ApiResponse>): Promise<ApiResponse> => {
  for (let told = 0; ; told++) {
    const res = await send();
    if (res.status !== 429 || told === 5) return res;
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after'))));
  }
};

/** Leads created at once; then about as many moves, deletes and creates at once (DynamoDB Local times out lock waits on a loaded machine beyond that). */
const CREATES = 9;

describe('CRM totals under concurrency', () => {
  it('keeps list totals and stage summary counters exact under concurrent creates, moves and deletes', async () => {
    const t = await env.tenant();
    const { pipeline, stage } = await makePipeline(t.api);
    // About 30 writes in all: within one token's write limit.
    const { api } = t;
    const open = [stage('New'), stage('Qualified'), stage('Proposal')];
    const currencies = ['USD', 'EUR'];
    const created = await Promise.all(
      Array.from({ length: CREATES }, async (_, i) => {
        const res = await api.post(LEADS, {
          title: `Lead ${i}`,
          pipelineId: pipeline._id,
          stageId: open[i % 3]!._id,
          value: { amount: 1000 + i, currency: currencies[i % 2] },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.data.lead as { _id: string };
      }),
    );
    // Then, all at once: every third lead deleted while a move races the delete, every third moved twice
    // (the two moves racing each other), the rest moved once, while more leads are created.
    const targets = [stage('Won'), stage('Lost'), stage('Proposal'), stage('New')];
    const move = (id: string, target: StageView) => answered(() => api.post(`${LEADS}/${id}/move`, { stageId: target._id }));
    const moves = created.map((lead, i) => move(lead._id, targets[i % 4]!));
    const moreMoves = created.flatMap((lead, i) => (i % 3 === 1 ? [move(lead._id, targets[(i + 1) % 4]!)] : []));
    const deletes = created.flatMap((lead, i) => (i % 3 === 0 ? [answered(() => api.delete(`${LEADS}/${lead._id}`))] : []));
    const extra = Array.from({ length: 3 }, (_, i) =>
      answered(() => api.post(LEADS, { title: `Late ${i}`, pipelineId: pipeline._id, value: { amount: 7, currency: 'USD' } })),
    );
    const [moved, deleted, added] = await Promise.all([Promise.all([...moves, ...moreMoves]), Promise.all(deletes), Promise.all(extra)]);
    // A move may find its lead already in that stage (409) or already deleted (404); nothing else may fail.
    for (const r of moved) expect([200, 404, 409], JSON.stringify(r.body)).toContain(r.status);
    for (const r of [...deleted, ...added]) expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);

    // The truth, read lead by lead.
    const all: { _id: string; stageId: string; status: string; value: { amount: number; currency: string } }[] = [];
    for (let cursor: string | undefined, first = true; first || cursor; first = false) {
      const res = await t.api.get(`${LEADS}?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      all.push(...res.body.data.leads);
      cursor = res.body.data.pagination.nextCursor ?? undefined;
    }
    expect(all).toHaveLength(CREATES - CREATES / 3 + 3);
    const total = async (query: string) => (await t.api.get(`${LEADS}?${query}&limit=1`)).body.data.pagination.total;
    expect(await total('')).toBe(all.length);
    expect(await total(`pipelineId=${pipeline._id}`)).toBe(all.length);
    for (const status of ['open', 'won', 'lost']) {
      const expected = all.filter((l) => l.status === status).length;
      expect(await total(`status=${status}`), status).toBe(expected);
      expect(await total(`pipelineId=${pipeline._id}&status=${status}`), status).toBe(expected);
    }
    const summary = (await t.api.get(`${PIPELINES}/${pipeline._id}/summary`)).body.data.summary;
    expect(summary.count).toBe(all.length);
    for (const s of pipeline.stages as StageView[]) {
      const inStage = all.filter((l) => l.stageId === s._id);
      expect(await total(`stageId=${s._id}`), s.name).toBe(inStage.length);
      const row = summary.stages.find((x: { stageId: string }) => x.stageId === s._id);
      expect(row.count, s.name).toBe(inStage.length);
      const amounts = Object.fromEntries(
        currencies.map((c) => [c, inStage.filter((l) => l.value.currency === c).reduce((n, l) => n + l.value.amount, 0)]),
      );
      expect(Object.fromEntries(row.values.map((v: { currency: string; amount: number }) => [v.currency, v.amount])), s.name).toEqual(
        Object.fromEntries(Object.entries(amounts).filter(([, a]) => a !== 0)),
      );
    }
    // Every change that happened wrote exactly one event of its kind.
    const events = await outboxEvents(t.workspaceId);
    const count = (type: string) => events.filter((e) => e.eventType === type).length;
    expect(count('crm.lead.created')).toBe(CREATES + 3);
    expect(count('crm.lead.deleted')).toBe(CREATES / 3);
    expect(count('crm.lead.stage_changed')).toBe(moved.filter((r) => r.status === 200).length);
    expect(count('crm.activity.added')).toBe(moved.filter((r) => r.status === 200).length);
    // Resends after a 429 included: on a loaded 2-core machine the contention alone takes tens of seconds.
  }, 180_000);
});
