import { performance } from 'node:perf_hooks';
import { WebSocket } from 'ws';
import type { LocalStack } from '../../infra/local/stack';
import { outboxItem } from '../../shared/data/outbox';
import { tokenConnectionIds } from '../../shared/data/realtime';
import { direct } from '../../shared/data/unit';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { buildEnvelope } from '../../shared/events/envelope';
import { createSubscription } from '../../shared/webhooks/subscriptions';
import { startReceiver } from '../support/https-receiver';
import { createTenant, tokenFor } from '../support/tenants';
import { percentile, type Section } from './measure';

/** Events timed per run, after untimed ones through the whole pipeline (its functions loaded, its pollers awake). */
const RUNS = [
  { sockets: 1, events: 40, warmup: 10 },
  { sockets: 1000, events: 12, warmup: 3 },
] as const;
/** The realtime API's cap on one token's sockets (docs/guide/realtime.md): 1,000 sockets take ten tokens. */
const SOCKETS_PER_TOKEN = 100;
/** Sockets opened at once while the run sets up. */
const OPENING = 20;

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);

/** A socket of `token`, subscribed to the workspace's events; `onEvent` gets each event frame's id as it arrives. */
const subscribedSocket = async (baseUrl: string, token: string, workspaceId: string, onEvent: (eventId: string) => void) => {
  const res = await fetch(`${baseUrl}/api/v1/realtime/tickets`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId },
  });
  if (res.status !== 201) throw new Error(`realtime bench: ticket refused (${res.status})`);
  const { data } = (await res.json()) as { data: { ticket: { url: string } } };
  const ws = new WebSocket(data.ticket.url);
  await new Promise<void>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('open', () => ws.send(JSON.stringify({ action: 'subscribe', events: ['auth.workspace.*'] })));
    ws.on('message', (raw) => {
      const frame = JSON.parse(raw.toString()) as { type: string; eventId?: string; event?: { eventId: string } };
      if (frame.type === 'subscribed') resolve();
      if (frame.type === 'error') reject(new Error(`realtime bench: ${raw.toString()}`));
      if (frame.type === 'event') onEvent(frame.event?.eventId ?? frame.eventId!);
    });
  });
  return ws;
};

/** Waits until `done` holds, polling every 2 ms; a bounded wait, so a lost frame fails the bench instead of hanging it. */
const until = async (done: () => boolean, what: string, ms = 120_000) => {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`realtime bench: ${what} did not arrive in time`);
    await new Promise((r) => setTimeout(r, 2));
  }
};

/**
 * Closes the run's sockets and waits for their `$disconnect` to forget them, so the next run (and the stack's stop)
 * starts with none left behind.
 */
const closeAll = async (open: WebSocket[], tokenIds: string[]) => {
  await Promise.all(
    open.map(
      (ws) =>
        new Promise((closed) => {
          if (ws.readyState === WebSocket.CLOSED) return closed(undefined);
          ws.once('close', closed);
          ws.close(1000);
        }),
    ),
  );
  const deadline = Date.now() + 60_000;
  for (const tokenId of tokenIds) {
    while ((await tokenConnectionIds(tokenId)).length > 0) {
      if (Date.now() > deadline) throw new Error('realtime bench: sockets still known after they closed');
      await new Promise((r) => setTimeout(r, 20));
    }
  }
};

/**
 * Event commit → socket frame next to event commit → webhook delivery, for the same events in the same run:
 * each event is one outbox write in a workspace with one webhook subscription (a local HTTPS receiver) and 1 or
 * 1,000 subscribed sockets, so both pipelines carry every event and the comparison is paired.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const delivered = new Map<string, number>();
  const receiver = await startReceiver((req) => {
    const eventId = req.headers['x-webhook-id'] as string | undefined;
    if (eventId && !delivered.has(eventId)) delivered.set(eventId, performance.now());
    return { status: 200 };
  });
  const rows: (string | number)[][] = [];
  try {
    for (const { sockets, events, warmup } of RUNS) {
      const { workspaceId, tenant, token, tokenId } = await createTenant(['admin:all']);
      await createSubscription(direct, tenant, { url: receiver.url, events: ['auth.workspace.*'] }, new Date());
      const tokens = [token];
      const tokenIds = [tokenId];
      while (tokens.length * SOCKETS_PER_TOKEN < sockets) {
        const more = await tokenFor([workspaceId], ['admin:all']);
        tokens.push(more.token);
        tokenIds.push(more.record._id);
      }
      const frames = new Map<string, number[]>();
      const onEvent = (eventId: string) => frames.set(eventId, [...(frames.get(eventId) ?? []), performance.now()]);
      const open: WebSocket[] = [];
      for (let i = 0; i < sockets; i += OPENING) {
        const batch = Array.from({ length: Math.min(OPENING, sockets - i) }, (_, j) =>
          subscribedSocket(stack.baseUrl, tokens[Math.floor((i + j) / SOCKETS_PER_TOKEN)]!, workspaceId, onEvent),
        );
        open.push(...(await Promise.all(batch)));
      }
      const emit = async (tenantOfRun: Tenant, i: number) => {
        const event = buildEnvelope('auth.workspace.updated', tenantOfRun, { workspace: { name: `bench ${i}` } });
        const committed = performance.now();
        await direct.commit([outboxItem(event)]);
        await until(() => (frames.get(event.eventId)?.length ?? 0) >= sockets && delivered.has(event.eventId), `event ${i}`);
        return { eventId: event.eventId, committed };
      };
      try {
        for (let i = 0; i < warmup; i++) await emit(tenant, i);
        const first: number[] = [];
        const last: number[] = [];
        const webhook: number[] = [];
        const cpuBefore = process.cpuUsage();
        for (let i = 0; i < events; i++) {
          const { eventId, committed } = await emit(tenant, warmup + i);
          const arrivals = sorted(frames.get(eventId)!);
          first.push(arrivals[0]! - committed);
          last.push(arrivals.at(-1)! - committed);
          webhook.push(delivered.get(eventId)! - committed);
        }
        const cpu = process.cpuUsage(cpuBefore);
        const cpuMsPerFrame = (cpu.user + cpu.system) / 1000 / (events * sockets);
        const [f, l, w] = [sorted(first), sorted(last), sorted(webhook)];
        rows.push([
          sockets,
          events,
          percentile(f, 50),
          percentile(f, 99),
          percentile(l, 50),
          percentile(w, 50),
          percentile(w, 99),
          `${(percentile(f, 50) / percentile(w, 50)).toFixed(2)}x`,
          cpuMsPerFrame,
        ]);
      } finally {
        await closeAll(open, tokenIds);
      }
    }
  } finally {
    await receiver.stop();
  }
  return [
    {
      title: 'Realtime: event commit → socket frame, next to event commit → webhook delivery (same events, same run)',
      columns: [
        'sockets',
        'events',
        'first frame p50 ms',
        'first frame p99 ms',
        'last frame p50 ms',
        'webhook p50 ms',
        'webhook p99 ms',
        'first frame / webhook p50',
        'CPU ms / frame',
      ],
      rows,
      notes: [
        'Each event is one outbox write, timed from just before it to the first (and the last) of the subscribed sockets receiving',
        'its frame, and to the signed HTTPS delivery of the same event reaching a local receiver (the baseline: the webhook pipeline',
        "in the same process). CPU ms / frame: this process's CPU (every function, the pollers, the gateway's sockets, the",
        'webhook delivery of each event; not DynamoDB Local) over the timed events, per frame pushed.',
      ],
    },
  ];
};
