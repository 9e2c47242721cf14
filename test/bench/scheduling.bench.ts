import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { LocalStack } from '../../infra/local/stack';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { createBooking } from '../../shared/scheduling/bookings';
import { createCustomer } from '../../shared/contacts/customers';
import { tenantPk } from '../../shared/data/keys';
import { addMember } from '../../shared/workspace/members';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { createTenant } from '../support/tenants';
import { measureInterleaved, type Latency, type Section } from './measure';
import { rotatingTokens } from './seed';
import { direct } from '../../shared/data/unit';

const BOOKINGS = 1_000;
const MINUTES = 30;
const DAY = 86_400_000;
const REQUESTS = 60;

/** `GET /scheduling/availability` for an assignee with 1,000 bookings, against a bare Query and an assignee with none. */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId, tenant } = await createTenant(['admin:all']);
  const now = new Date();
  const customer = await createCustomer(direct, tenant, { name: 'Bench customer' }, now);
  const [busy, idle] = await Promise.all(
    ['busy', 'idle'].map((name) => addMember(direct, tenant, { email: `${name}@example.com`, role: 'agent' }, now, 'active')),
  );
  // 1,000 back-to-back 30-minute bookings from tomorrow on: about 21 days, all inside a 31-day range.
  const first = Math.ceil((now.getTime() + DAY) / DAY) * DAY;
  const seedStarted = Date.now();
  for (let i = 0; i < BOOKINGS; i++) {
    const start = first + i * MINUTES * 60_000;
    const input = {
      title: `Booking ${i}`,
      customerId: customer._id,
      assigneeId: busy!._id,
      startAt: new Date(start).toISOString(),
      endAt: new Date(start + MINUTES * 60_000).toISOString(),
      timezone: 'UTC',
    };
    await createBooking(direct, tenant, input, now);
  }
  const seedSeconds = (Date.now() - seedStarted) / 1000;

  const tokens = await rotatingTokens(workspaceId, ['inbox:read'], REQUESTS * 4 + 100, RATE_LIMITS.read - 5);
  const availability = (assigneeId: string, days: number, expectSlots: (n: number) => boolean) => async () => {
    const query = `assigneeId=${assigneeId}&from=${new Date(first).toISOString()}&to=${new Date(first + days * DAY).toISOString()}&durationMinutes=30`;
    const res = await fetch(`${stack.baseUrl}/api/v1/scheduling/availability?${query}`, {
      headers: { authorization: `Bearer ${tokens()}`, 'x-workspace-id': workspaceId },
    });
    const body = (await res.json()) as { data: { availability: { slots: unknown[] } } };
    if (res.status !== 200 || !expectSlots(body.data.availability.slots.length))
      throw new Error(`unexpected ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
  };
  const bareQuery = () =>
    dynamo().send(
      new QueryCommand({
        TableName: config().TABLE_NAME,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': tenantPk(tenant, 'SLOT', busy!._id) },
        Limit: 20,
      }),
    );

  const results = await measureInterleaved(
    {
      bare: bareQuery,
      idle31: availability(idle!._id, 31, (n) => n > 0),
      busy31: availability(busy!._id, 31, (n) => n >= 0),
      busy1: availability(busy!._id, 1, (n) => n === 0),
    },
    { requests: REQUESTS, warmup: 5 },
  );
  const base = results.bare;
  const row = (name: string, l: Latency) => [name, l.p50Ms, l.p99Ms, l.rps, l.p50Ms / base.p50Ms, l.p50Ms / results.idle31.p50Ms];
  return [
    {
      title: `GET /api/v1/scheduling/availability for an assignee with ${BOOKINGS.toLocaleString('en')} bookings`,
      columns: ['request', 'p50 ms', 'p99 ms', 'req/s', 'p50 ÷ bare Query', 'p50 ÷ no bookings'],
      rows: [
        row('bare DynamoDB Query, 20 slot claims (in-process)', base),
        row('GET availability, 31 days, assignee with no bookings', results.idle31),
        row(`GET availability, 31 days, assignee with ${BOOKINGS} bookings`, results.busy31),
        row(`GET availability, 1 fully booked day, same assignee`, results.busy1),
      ],
      notes: [
        `Seeded ${BOOKINGS} back-to-back ${MINUTES}-minute bookings (${(BOOKINGS * MINUTES) / 15} claimed quarter hours) through createBooking, one transaction each, in ${seedSeconds.toFixed(1)} s.`,
        'A request reads the workspace and the member (GetItem each) and the claimed quarter hours in the range (one Query, paged at 1 MB): O(days + bookings in range), never a scan. Requests interleaved, one at a time.',
      ],
    },
  ];
};
