import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { generatedRegions, pagePath, withRegion } from '../../infra/cost/docs';
import { edgeLines, idleLines, INCOMING_MESSAGE_ROUTE, total, workloadLines } from '../../infra/cost/estimate';
import { readMeasured } from '../../infra/cost/measured';
import { stageCosts, STANDARD_WORKLOAD, type StageCost } from '../../infra/cost/report';
import { wiring } from '../../functions/wiring';

let costs: StageCost[];
beforeAll(() => {
  costs = stageCosts();
}, 600_000);
const stage = (name: string) => costs.find((c) => c.inventory.stage === name)!;

describe('npm run cost', () => {
  it('prices an idle default stage at $10 a month or less, and prod the same with the edge apart', () => {
    expect(total(stage('dev').idle)).toBeLessThanOrEqual(10);
    expect(stage('dev').edge).toEqual([]);
    expect(total(stage('prod').idle)).toBeLessThanOrEqual(10);
    expect(stage('prod').edge.map((l) => l.item)).toEqual(['WAF web ACL', 'WAF rules']);
  });

  it('counts what the templates hold: every alarm metric, the key, the dashboard, each schedule at its rate and sampling', () => {
    const dev = stage('dev').inventory;
    // Every wiring function (routes, the fallback, consumers, rule and schedule targets, the socket routes), the site's upload
    // function, and per bucket with downloads the custom resource that makes its signing key and CDK's provider framework
    // (both run at deployment only).
    const downloads = wiring.buckets.filter((b) => b.downloads).length;
    expect(dev.functions).toBe(
      wiring.routes.length +
        1 +
        wiring.queues.length +
        wiring.rules.length +
        wiring.schedules.length +
        Object.keys(wiring.socket ?? {}).length +
        1 +
        2 * downloads,
    );
    expect(dev.keys).toBe(wiring.keys.length);
    expect(dev.dashboards).toBe(1);
    expect(dev.sqsEventSources).toBe(wiring.queues.length);
    // Every domain event invokes the rule targets that match any outbox event (the webhook fan-out, the workflow trigger, the realtime push).
    expect(dev.targetsPerEvent).toBe(wiring.rules.filter((r) => !r.pattern.detail && !r.bucket).length);
    expect(dev.targetsPerEvent).toBe(3);
    expect(dev.schedules.map((s) => s.runsPerMonth).sort()).toEqual(wiring.schedules.map((s) => (30 * 24 * 60) / s.everyMinutes).sort());
    // Every schedule matches the 1 % sampling rule; without it each idle run would be traced.
    for (const s of dev.schedules) expect(s.traceRate).toBe(0.01);
    const alarms = idleLines(dev).find((l) => l.item === 'CloudWatch alarms')!;
    expect(alarms.quantity).toBe(dev.alarmMetrics);
    // The API 5xx rate is the one metric-math alarm, paid for each of its two metrics.
    expect(dev.alarmMetrics).toBe(dev.alarms + 1);
  });

  it('prices a workload on top from the measured write units, growing with it', () => {
    const measured = readMeasured();
    const dev = stage('dev').inventory;
    const one = total(workloadLines(STANDARD_WORKLOAD, measured, dev));
    const two = total(workloadLines({ apiCalls: 2e6, deliveries: 2e6, incomingMessages: 2e6, socketHours: 2 * 1760 }, measured, dev));
    expect(one).toBeGreaterThan(0);
    expect(two).toBeCloseTo(2 * one, 6);
    expect(total(workloadLines(STANDARD_WORKLOAD, measured, stage('prod').inventory))).toBeGreaterThan(one);
    expect(total(edgeLines(stage('dev').inventory))).toBe(0);
  });

  it("prices a month's incoming messages at the measured units of the route that records them", () => {
    const measured = readMeasured();
    const route = measured.rows.find((r) => r.what === INCOMING_MESSAGE_ROUTE)!;
    const row = workloadLines(STANDARD_WORKLOAD, measured, stage('dev').inventory).find(
      (l) => l.item === 'DynamoDB writes, incoming messages',
    )!;
    expect(route.unitsPerCall).toBeGreaterThan(0);
    expect(row.quantity).toBeGreaterThanOrEqual(STANDARD_WORKLOAD.incomingMessages * route.unitsPerCall);
    expect(row.usd).toBeGreaterThan(0);
  });

  it('reads write units measured for every write route and every consumer the wiring declares', () => {
    const measured = new Set(readMeasured().rows.map((r) => r.what));
    const declared = [
      ...wiring.routes.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
      ...wiring.queues.map((q) => `queue ${q.name}`),
      ...wiring.rules.map((r) => `event ${r.name}`),
      ...wiring.schedules.map((s) => `schedule ${s.name}`),
    ];
    expect(declared.filter((d) => !measured.has(d))).toEqual([]);
  });

  it('is what the README and the cost page show (npm run cost:docs regenerates them)', () => {
    for (const [file, body] of Object.entries(generatedRegions(costs))) {
      const page = readFileSync(pagePath(file), 'utf8');
      expect(page, `${file} is stale: run npm run cost:docs`).toBe(withRegion(page, body, file));
    }
  });
});
