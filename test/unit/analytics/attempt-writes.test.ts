import { describe, expect, it } from 'vitest';
import { attemptWrites, type RecordedAttempt } from '../../../shared/analytics/record';
import { liveTenant } from '../../../shared/domain/auth/tenant';

const a = liveTenant('a'.repeat(24));
const b = liveTenant('b'.repeat(24));
const attempt = (tenant: typeof a, status: string, latencyMs: number, at: string, timezone = 'UTC'): RecordedAttempt => ({
  tenant,
  timezone,
  status,
  latencyMs,
  at: new Date(at),
});

/** Each write's key and the totals its ADD adds. */
const added = (attempts: RecordedAttempt[]) =>
  attemptWrites(attempts).map(({ write, attempts: counted }) => {
    const update = write.item.Update!;
    const names = update.ExpressionAttributeNames!;
    const values = update.ExpressionAttributeValues!;
    const totals = Object.fromEntries(Object.keys(names).map((n) => [names[n], values[`:${n.slice(1)}`]]));
    return { key: update.Key, totals, counted: counted.length };
  });

describe("a batch's webhook attempts as day aggregates", () => {
  it('sums the attempts of one workspace day into one ADD, latency samples in their sketch buckets', () => {
    const writes = added([
      attempt(a, 'retrying', 250, '2026-01-05T12:00:00Z'),
      attempt(a, 'success', 100, '2026-01-05T12:00:01Z'),
      attempt(a, 'success', 100, '2026-01-05T13:00:00Z'),
      attempt(a, 'failed', 400, '2026-01-05T14:00:00Z'),
    ]);
    expect(writes).toHaveLength(1);
    const [{ key, totals, counted }] = writes as [(typeof writes)[number]];
    expect(key).toMatchObject({ sk: '2026-01-05' });
    expect(counted).toBe(4);
    expect(totals).toMatchObject({ webhookAttempts: 4, webhookDelivered: 2, webhookFailed: 1 });
    const buckets = Object.entries(totals).filter(([name]) => name.startsWith('webhookLatencyMs:'));
    expect(buckets.reduce((n, [, v]) => n + (v as number), 0)).toBe(4);
    expect(Math.max(...buckets.map(([, v]) => v as number))).toBe(2);
  });

  it('writes one ADD per workspace and per local day, each with the attempts it holds', () => {
    const writes = added([
      attempt(a, 'success', 10, '2026-01-05T23:30:00Z'),
      attempt(a, 'success', 10, '2026-01-06T00:30:00Z'),
      attempt(b, 'success', 10, '2026-01-05T23:30:00Z'),
      // 23:30 UTC is already the next day in Kiritimati (UTC+14).
      attempt(b, 'success', 10, '2026-01-05T23:30:00Z', 'Pacific/Kiritimati'),
    ]);
    expect(writes.map((w) => [w.key!.pk === writes[0]!.key!.pk ? 'a' : 'b', w.key!.sk, w.counted])).toEqual([
      ['a', '2026-01-05', 1],
      ['a', '2026-01-06', 1],
      ['b', '2026-01-05', 1],
      ['b', '2026-01-06', 1],
    ]);
  });

  it('writes nothing for no attempts', () => {
    expect(attemptWrites([])).toEqual([]);
  });
});
