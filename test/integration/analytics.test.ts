import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import { makePipeline } from '../support/crm';
import { useTestStack } from '../support/stack';
import { startReceiver } from '../support/https-receiver';
import { eventually } from '../support/webhooks';
import { localDate } from '../../shared/domain/analytics/calendar';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { attemptWrites, recordEvent } from '../../shared/analytics/record';
import { direct } from '../../shared/data/unit';
import { tallyAttempt, writeAttemptTallies } from '../../shared/webhooks/attempt-tallies';
import { runAs } from '../../infra/local/aws-guard';
import { buildEnvelope, type EventEnvelope } from '../../shared/events/envelope';
import { RELATIVE_ERROR } from '../../shared/domain/analytics/histogram';

/**
 * Reports through HTTP, from the aggregates the analytics consumer keeps (run by the stack's workers, or fed
 * crafted events). Loopback receivers allowed, for the delivery worker's attempts.
 */
const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const A = '/api/v1/analytics';
const AGENT1 = 'a1a1a1a1a1a1a1a1a1a1a1a1';
const AGENT2 = 'b2b2b2b2b2b2b2b2b2b2b2b2';

const setTimezone = (workspaceId: string, timezone: string) =>
  dynamo().send(
    new UpdateCommand({
      TableName: config().TABLE_NAME,
      Key: { pk: `WS#${workspaceId}`, sk: 'WORKSPACE' },
      UpdateExpression: 'SET #tz = :tz',
      ExpressionAttributeNames: { '#tz': 'timezone' },
      ExpressionAttributeValues: { ':tz': timezone },
    }),
  );

/** A duration the sketch reports: within its documented relative error of the exact value. */
const approx = (exact: number) => ({
  asymmetricMatch: (actual: number) => Math.abs(actual - exact) <= exact * RELATIVE_ERROR + 1,
  toString: () => `≈${exact}`,
});

describe('analytics from live aggregates', () => {
  it('counts what happens through the API (conversation, reply, close, lead) via the outbox consumer', { timeout: 60_000 }, async () => {
    const t = await env.tenant();
    const incoming = await t.api.post('/api/v1/inbox/messages/incoming', {
      channel: 'email',
      customer: { identifier: 'x@example.com', email: 'x@example.com' },
      content: 'Hi',
    });
    const conversationId = incoming.body.data.conversation._id;
    await t.api.post(`/api/v1/inbox/conversations/${conversationId}/messages`, { content: 'Hello!' });
    await t.api.post(`/api/v1/inbox/conversations/${conversationId}/messages`, { content: 'Anything else?' });
    await t.api.post(`/api/v1/inbox/conversations/${conversationId}/status`, { status: 'closed' });
    const overview = await eventually(async () => {
      const res = await t.api.get(`${A}/overview`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const o = res.body.data.overview;
      return o.conversations.closed === 1 && o.messages.outgoing === 2 ? o : undefined;
    }, 20_000);
    expect(overview).toMatchObject({
      conversations: { opened: 1, closed: 1 },
      messages: { incoming: 1, outgoing: 2 },
      leads: { created: 0, won: 0, lost: 0, wonValue: {} },
    });
    expect(overview.firstResponseSeconds.median).toEqual(overview.firstResponseSeconds.p90);
    expect(overview.firstResponseSeconds.median).toBeLessThan(60);
  });

  it('matches a hand-computed scenario across two days and a timezone boundary, and never double-counts a redelivered event', {
    timeout: 60_000,
  }, async () => {
    const t = await env.tenant();
    await setTimezone(t.workspaceId, 'America/New_York'); // UTC−5 in January: 2026-01-05T05:00Z is local midnight.
    const { pipeline, stage } = await makePipeline(t.api);
    const conv = (id: string, createdAt: string, assigneeId: string | null) => ({ _id: id.repeat(24), createdAt, assigneeId });
    const A1 = conv('a', '2026-01-05T04:30:00.000Z', AGENT1); // local Jan 4, 23:30
    const B2 = conv('b', '2026-01-05T05:10:00.000Z', AGENT2); // local Jan 5, 00:10
    const C1 = conv('c', '2026-01-05T14:00:00.000Z', AGENT1); // local Jan 5, 09:00
    const at = (iso: string, type: Parameters<typeof buildEnvelope>[0], data: Record<string, unknown>) =>
      buildEnvelope(type, t.tenant, data, { now: new Date(iso) });
    const sent = (c: typeof A1, iso: string, author = 'token') =>
      at(iso, 'inbox.message.sent', { conversation: c, message: { createdAt: iso, author: { type: author, id: null } } });
    const lead = (id: string, stageName: string, value: unknown = null) => ({
      lead: { _id: id.repeat(24), pipelineId: pipeline._id, stageId: stage(stageName)._id, value },
    });
    const events: EventEnvelope[] = [
      at(A1.createdAt, 'inbox.conversation.created', { conversation: A1 }),
      at(A1.createdAt, 'inbox.message.received', { conversation: A1, message: {} }),
      sent(A1, '2026-01-05T04:32:00.000Z'), // first response 120 s, local Jan 4
      sent(A1, '2026-01-05T04:40:00.000Z'), // a second reply: no first-response sample
      at(B2.createdAt, 'inbox.conversation.created', { conversation: B2 }),
      at(B2.createdAt, 'inbox.message.received', { conversation: B2, message: {} }),
      sent(B2, '2026-01-05T05:20:00.000Z', 'ai'), // 600 s
      at(C1.createdAt, 'inbox.conversation.created', { conversation: C1 }),
      at(C1.createdAt, 'inbox.message.received', { conversation: C1, message: {} }),
      sent(C1, '2026-01-05T14:01:00.000Z'), // 60 s
      at('2026-01-05T16:00:00.000Z', 'inbox.conversation.closed', { conversation: C1 }), // resolution 7,200 s
      at('2026-01-05T07:30:00.000Z', 'inbox.conversation.closed', { conversation: A1 }), // resolution 10,800 s, local Jan 5
      at('2026-01-05T03:00:00.000Z', 'crm.lead.created', lead('d', 'New')), // local Jan 4
      at('2026-01-05T15:00:00.000Z', 'crm.lead.created', lead('e', 'New')),
      at('2026-01-05T15:10:00.000Z', 'crm.lead.stage_changed', lead('e', 'Qualified')),
      at('2026-01-05T15:20:00.000Z', 'crm.lead.stage_changed', lead('e', 'Won', { amount: 5000, currency: 'USD' })),
      at('2026-01-05T15:20:00.000Z', 'crm.lead.won', lead('e', 'Won', { amount: 5000, currency: 'USD' })),
      at('2026-01-05T18:00:00.000Z', 'crm.lead.stage_changed', lead('d', 'Lost')),
      at('2026-01-05T18:00:00.000Z', 'crm.lead.lost', lead('d', 'Lost')),
    ];
    for (const e of events) expect(await recordEvent(direct, e)).toBe('counted');
    // Every event delivered again, as EventBridge may: nothing counts twice.
    for (const e of events) expect(await recordEvent(direct, e)).toBe('duplicate');
    // Webhook attempts as the delivery worker records them: a failure (250 ms) then a success (100 ms), and one success (400 ms).
    const attempts = (
      [
        ['retrying', 250],
        ['success', 100],
        ['success', 400],
      ] as const
    ).map(([status, latencyMs]) => ({
      tenant: t.tenant,
      timezone: 'America/New_York',
      status,
      latencyMs,
      at: new Date('2026-01-05T12:00:00Z'),
    }));
    const writes = attemptWrites(attempts);
    expect(writes).toHaveLength(1);
    await direct.commit(writes.map((w) => w.write));

    const q = '?from=2026-01-04&to=2026-01-05';
    const overview = (await t.api.get(`${A}/overview${q}`)).body.data;
    expect(overview.range).toEqual({ from: '2026-01-04', to: '2026-01-05', interval: 'day', timezone: 'America/New_York' });
    expect(overview.overview).toEqual({
      conversations: { opened: 3, closed: 2 },
      messages: { incoming: 3, outgoing: 4 },
      firstResponseSeconds: { median: approx(120), p90: approx(600) },
      resolutionSeconds: { median: approx(7200), p90: approx(10800) },
      leads: { created: 2, won: 1, lost: 1, wonValue: { USD: 5000 } },
      webhooks: { deliveries: 2, succeeded: 2, successRate: 1 },
    });

    const conversations = (await t.api.get(`${A}/conversations${q}`)).body.data.conversations;
    expect(conversations.series).toEqual([
      expect.objectContaining({
        start: '2026-01-04',
        end: '2026-01-04',
        opened: 1,
        closed: 0,
        incoming: 1,
        outgoing: 2,
        aiOutgoing: 0,
        firstResponseSeconds: { median: approx(120), p90: approx(120), count: 1 },
      }),
      expect.objectContaining({
        start: '2026-01-05',
        end: '2026-01-05',
        opened: 2,
        closed: 2,
        incoming: 2,
        outgoing: 2,
        aiOutgoing: 1,
        firstResponseSeconds: { median: approx(60), p90: approx(600), count: 2 },
      }),
    ]);
    // The same days in UTC would hold everything on Jan 5; only Jan 5 is asked for here.
    expect((await t.api.get(`${A}/overview?from=2026-01-05&to=2026-01-05`)).body.data.overview.conversations).toEqual({
      opened: 2,
      closed: 2,
    });
    // 2026-01-04 is a Sunday: weekly periods are ISO weeks clipped to the range.
    const weekly = (await t.api.get(`${A}/conversations?from=2026-01-01&to=2026-01-12&interval=week`)).body.data.conversations.series;
    expect(weekly.map((p: { start: string; end: string; opened: number }) => [p.start, p.end, p.opened])).toEqual([
      ['2026-01-01', '2026-01-04', 1],
      ['2026-01-05', '2026-01-11', 2],
      ['2026-01-12', '2026-01-12', 0],
    ]);

    const agents = (await t.api.get(`${A}/agents${q}`)).body.data.agents;
    expect(agents).toEqual([
      {
        assigneeId: AGENT1,
        conversationsAssigned: 0,
        conversationsClosed: 2,
        messagesSent: 3,
        firstResponseSeconds: { median: approx(60), p90: approx(120), count: 2 },
        resolutionSeconds: { median: approx(7200), p90: approx(10800), count: 2 },
      },
      {
        assigneeId: AGENT2,
        conversationsAssigned: 0,
        conversationsClosed: 0,
        messagesSent: 1,
        firstResponseSeconds: { median: approx(600), p90: approx(600), count: 1 },
        resolutionSeconds: { median: null, p90: null, count: 0 },
      },
    ]);

    const report = (await t.api.get(`${A}/pipeline${q}`)).body.data.pipeline;
    expect(report).toMatchObject({ created: 2, won: 1, lost: 1, wonValue: { USD: 5000 }, winRate: 0.5 });
    expect(report.pipelines).toEqual([
      {
        pipelineId: pipeline._id,
        name: 'Sales',
        stages: [
          { stageId: stage('New')._id, name: 'New', kind: 'open', entered: 2, conversionToNext: 0.5 },
          { stageId: stage('Qualified')._id, name: 'Qualified', kind: 'open', entered: 1, conversionToNext: 0 },
          { stageId: stage('Proposal')._id, name: 'Proposal', kind: 'open', entered: 0, conversionToNext: null },
          { stageId: stage('Won')._id, name: 'Won', kind: 'won', entered: 1, conversionToNext: null },
          { stageId: stage('Lost')._id, name: 'Lost', kind: 'lost', entered: 1, conversionToNext: null },
        ],
      },
    ]);
    expect(report.series.map((p: { created: number }) => p.created)).toEqual([1, 1]);

    const webhooks = (await t.api.get(`${A}/webhooks${q}`)).body.data.webhooks;
    expect(webhooks).toMatchObject({
      deliveries: 2,
      succeeded: 2,
      failed: 0,
      successRate: 1,
      attempts: 3,
      latencyMs: { median: approx(250), p90: approx(400), count: 3 },
    });

    // Another workspace (and this one's live mode) sees none of it.
    const other = await env.tenant();
    expect((await other.api.get(`${A}/overview${q}`)).body.data.overview.conversations).toEqual({ opened: 0, closed: 0 });
    const live = await env.liveMode(t);
    expect((await live.api.get(`${A}/overview${q}`)).body.data.overview.messages).toEqual({ incoming: 0, outgoing: 0 });
  });

  it('counts a webhook attempt on its day in the workspace timezone, as the delivery worker records it', { timeout: 60_000 }, async () => {
    const t = await env.tenant();
    // A timezone whose date is not UTC's now: 14 hours ahead from 10:00 UTC, else 12 behind.
    const timezone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Etc/GMT+12';
    await setTimezone(t.workspaceId, timezone);
    const receiver = await startReceiver();
    try {
      const sub = (await t.api.post('/api/v1/integrations/webhooks', { url: receiver.url, events: ['crm.lead.created'] })).body.data
        .subscription;
      expect((await t.api.post(`/api/v1/integrations/webhooks/${sub._id}/test`)).status).toBe(202);
      await receiver.waitFor(1, 15_000);
      const day = localDate(new Date(), timezone);
      expect(day).not.toBe(localDate(new Date(), 'UTC'));
      const counted = await eventually(async () => {
        const report = (await t.api.get(`${A}/webhooks?from=${day}&to=${day}`)).body.data.webhooks;
        return report.attempts === 1 && report;
      }, 10_000);
      expect(counted).toMatchObject({ deliveries: 1, succeeded: 1, failed: 0, attempts: 1 });
    } finally {
      await receiver.stop();
    }
  });

  it("keeps a batch's attempt tallies whose write was refused and writes them, once, with the next batch", async () => {
    const t = await env.tenant();
    const at = new Date('2026-02-10T12:00:00Z');
    const report = async () => (await t.api.get(`${A}/webhooks?from=2026-02-10&to=2026-02-10`)).body.data.webhooks;
    tallyAttempt({ tenant: t.tenant, timezone: 'UTC', status: 'success', latencyMs: 120, at });
    // A worker whose role grants nothing: AWS refuses its write (the local runtime, as IAM would).
    await runAs({ name: 'worker-without-grants', kind: 'queue', grants: [] }, writeAttemptTallies);
    expect(await report()).toMatchObject({ attempts: 0 });
    await writeAttemptTallies();
    expect(await report()).toMatchObject({ attempts: 1, succeeded: 1 });
    await writeAttemptTallies();
    expect(await report()).toMatchObject({ attempts: 1, succeeded: 1 });
  });

  it('validates the range and needs analytics:read', async () => {
    const t = await env.tenant();
    expectError(await t.api.get(`${A}/overview?from=2026-01-05&to=2026-01-04`), 422, 'VALIDATION_ERROR');
    expectError(await t.api.get(`${A}/overview?from=2025-01-01&to=2026-01-04`), 422, 'VALIDATION_ERROR');
    expectError(await t.api.get(`${A}/overview?from=yesterday`), 422, 'VALIDATION_ERROR');
    expectError(await t.api.get(`${A}/agents?interval=month`), 422, 'VALIDATION_ERROR');
    const inbox = await env.tenant(['inbox:read']);
    expectError(await inbox.api.get(`${A}/pipeline`), 403, 'FORBIDDEN');
    const reader = await env.tenant(['analytics:read']);
    const res = await reader.api.get(`${A}/webhooks`);
    expect(res.status).toBe(200);
    expect(res.body.data.webhooks.series).toHaveLength(30);
  });

  // Once, a far date sent every report into an endless day loop that took the whole process down.
  it('refuses dates outside 2000-01-01..2100-01-01 and `from` after `to` on every report, at once, naming the field', async () => {
    const t = await env.tenant();
    const cases: [string, string][] = [
      ['from=9999-12-31', 'from'],
      ['to=9999-12-31', 'to'],
      ['to=0000-01-01', 'to'],
      ['from=0000-01-01&to=2000-01-02', 'from'],
      ['from=1999-12-31&to=2000-01-05', 'from'],
      ['from=2100-01-01&to=2100-01-02', 'to'],
      ['from=2099-06-01', 'from'],
    ];
    for (const report of ['overview', 'conversations', 'agents', 'pipeline', 'webhooks']) {
      for (const [query, field] of cases) {
        const started = Date.now();
        const res = await t.api.get(`${A}/${report}?${query}`);
        expectError(res, 422, 'VALIDATION_ERROR');
        expect(
          res.body.error.details.errors.map((e: { path: string }) => e.path),
          `${report}?${query}`,
        ).toEqual([field]);
        expect(Date.now() - started, `${report}?${query}`).toBeLessThan(2_000);
      }
    }
    // The bounds themselves are valid days.
    expect((await t.api.get(`${A}/overview?from=2000-01-01&to=2000-01-01`)).status).toBe(200);
    expect((await t.api.get(`${A}/conversations?from=2099-01-01&to=2100-01-01`)).body.data.conversations.series).toHaveLength(366);
  });
});
