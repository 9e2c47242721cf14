import type { ChildProcess } from 'node:child_process';
import { expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { CRASH_AFTER_SOCKET_POSTS, FAULT_AFTER_ENV, FAULT_ENV } from '../../infra/local/faults';
import { createParleyClient } from '../../packages/client/src/index';
import { readConnection, tokenConnectionIds } from '../../shared/data/realtime';
import { client, type Client } from '../support/api';
import { useCrashRig } from '../support/child-stack';
import { logIdsSince, openSocket, ticketFor, writeBatched, writeCustomers } from '../support/realtime';
import { createTenant } from '../support/tenants';

/**
 * The push function SIGKILLed mid-batch. Parley runs in a child `npm start` process (gateway, stream poller,
 * push function) sharing this process's DynamoDB Local table, which survives the crash as the managed table
 * does. The crash takes the child's sockets with it, so the client sees its socket close; it reconnects to
 * the restarted child with `since` and must get every event it missed, once.
 */
const rig = useCrashRig('realtime-crash');

/** A child that dies the moment its `after`th event frame is posted, or one that does not crash. */
const startParley = (after?: number) => rig.start(after ? { [FAULT_ENV]: CRASH_AFTER_SOCKET_POSTS, [FAULT_AFTER_ENV]: String(after) } : {});

const killed = (child: ChildProcess) =>
  new Promise<string | null>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done(child.signalCode);
    child.once('exit', (_code, signal) => done(signal));
  });

const newestCustomerEvent = async (api: Client) =>
  (await api.get('/api/v1/events?types=customer.*&limit=1')).body.data.events[0].eventId as string;

/** The child running now: each test leaves it running for the next, so the file starts three, not four. */
let parley: Awaited<ReturnType<typeof startParley>>;
/** How many events of the batch the second test sends before its push is killed. */
const LIVE_BEFORE_CRASH = 10;

it('a push killed mid-replay: the client resumes with since = the last event it received and gets the rest once each, in order', async () => {
  const owner = await createTenant();
  const api = client(rig.stack.baseUrl, owner);
  await writeCustomers(owner.tenant, 1, 1);
  const anchor = await newestCustomerEvent(api);
  await writeBatched(owner.tenant, 40);
  const backlog = await logIdsSince(api, anchor);
  expect(backlog).toHaveLength(40);

  parley = await startParley(15);
  const socket = await openSocket((await ticketFor(client(parley.baseUrl, owner))).url);
  socket.send({ action: 'subscribe', events: ['customer.*'], since: anchor });
  expect(await killed(parley.child)).toBe('SIGKILL');
  await socket.closed;
  const before = socket.eventIds();
  // The replay sends oldest first: what arrived is the start of the backlog, the rest was lost with the push.
  expect(before.length).toBeGreaterThan(0);
  expect(before.length).toBeLessThanOrEqual(15);
  expect(before).toEqual(backlog.slice(0, before.length));

  // The next child dies in the next test, mid-batch: after this test's frames (the rest and one more).
  const rest = backlog.length - before.length;
  parley = await startParley(rest + 1 + LIVE_BEFORE_CRASH);
  const resumed = await openSocket((await ticketFor(client(parley.baseUrl, owner))).url);
  resumed.send({ action: 'subscribe', events: ['customer.*'], since: before.at(-1) });
  await resumed.until((f) => f.filter((x) => x.type === 'event').length >= rest);
  // One more live event marks the end: anything sent twice would have arrived before it.
  const [last] = await writeCustomers(owner.tenant, 1, 1);
  await resumed.until((f) => f.some((x) => x.event?.eventId === last));
  expect([...before, ...resumed.eventIds()]).toEqual([...backlog, last]);
  await resumed.close();
}, 150_000);

it('a push killed mid-batch of live events: the resuming client gets every event of the batch exactly once', async () => {
  const owner = await createTenant();
  const api = client(rig.stack.baseUrl, owner);
  await writeCustomers(owner.tenant, 1, 1);
  const anchor = await newestCustomerEvent(api);

  // The client follows Parley across its restart (a new port): its calls go to the child running now.
  const fetchFromRunning: typeof fetch = (input, init) => {
    const url = new URL(new Request(input, init).url);
    return fetch(new Request(`${parley.baseUrl}${url.pathname}${url.search}`, new Request(input, init)));
  };
  const sdk = createParleyClient({
    baseUrl: parley.baseUrl,
    token: owner.token,
    workspaceId: owner.workspaceId,
    fetch: fetchFromRunning,
    // Its ticket calls fail while the child restarts: with the default 30 s cap on backoff, a loaded restart
    // left the client asleep for most of the deadline after the new child was up.
    maxRetries: 20,
    maxRetryWaitMs: 4_000,
  });
  const got: string[] = [];
  const stop = new AbortController();
  const reading = (async () => {
    for await (const e of sdk.realtime.subscribe({ events: ['customer.*'], since: anchor, WebSocket, signal: stop.signal }))
      got.push(e.eventId);
  })().catch((error: unknown) => (stop.signal.aborted ? undefined : Promise.reject(error)));
  const live = async () =>
    (await Promise.all((await tokenConnectionIds(owner.tokenId)).map(readConnection))).some((c) => c?.state === 'live');
  while (!(await live())) await new Promise((r) => setTimeout(r, 20));

  const batch = await writeCustomers(owner.tenant, 30, 4);
  expect(await killed(parley.child)).toBe('SIGKILL');
  // The pushes in flight beside the tenth may have reached the socket too; the rest of the batch has not.
  expect(got.length).toBeLessThan(batch.length);
  parley = await startParley();

  const deadline = Date.now() + 90_000;
  while (got.length < batch.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  // Then a last live event: a repeat of the batch would have arrived before it.
  const [last] = await writeCustomers(owner.tenant, 1, 1);
  while (!got.includes(last!) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  stop.abort();
  await reading;
  expect(new Set(got).size).toBe(got.length);
  expect([...got].sort()).toEqual([...batch, last].sort());
  expect(await logIdsSince(api, anchor)).toEqual([...got].sort());
}, 150_000);
