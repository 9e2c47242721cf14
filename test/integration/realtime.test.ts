import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createParleyClient } from '../../packages/client/src/index';
import { registerClientPlugin } from '../../shared/aws/plugins';
import type { Tenant } from '../../shared/domain/auth/tenant';
import { hashToken } from '../../shared/domain/auth/token';
import {
  forgetConnection,
  readConnection,
  storeConnection,
  storeTicket,
  tenantHasSockets,
  tokenConnectionIds,
} from '../../shared/data/realtime';
import { SOCKET_SOURCE, SUBSCRIBED_DETAIL_TYPE } from '../../shared/domain/realtime/protocol';
import { wiring } from '../../functions/wiring';
import { busEvent, route } from '../../infra/local/event-router';
import { client, type Client } from '../support/api';
import { logIdsSince, openSocket, subscribed, ticketFor, writeBatched, writeCustomers, type TestSocket } from '../support/realtime';
import { useTestStack } from '../support/stack';
import { tail } from '../docs/examples/realtime-tail';
import { tailEvents } from '../../packages/cli/events-tail';
import { tokenFor } from '../support/tenants';
import { direct } from '../../shared/data/unit';

const t = useTestStack();

let serial = 0;
const newCustomer = async (api: Client) => {
  const res = await api.post('/api/v1/contacts/customers', { name: 'Ada', email: `ada-${process.pid}-${++serial}@example.com` });
  expect(res.status).toBe(201);
  return res.body.data.customer._id as string;
};

/** Resolves once `condition` holds (checked every 10 ms), or rejects after `ms`. */
const until = async (condition: () => boolean, ms = 90_000) => {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** Drops every socket of the token from the server's side (the management API's DeleteConnection), as a network failure would. */
const dropSocketsOf = async (tokenId: string) => {
  for (const id of await tokenConnectionIds(tokenId))
    await fetch(`${t.stack.baseUrl}/@connections/${encodeURIComponent(id)}`, { method: 'DELETE' });
};

/** Resolves once a socket of the token has subscribed (its push sees it from then on). */
const waitSubscribed = async (tokenId: string) => {
  const subscribedNow = async () =>
    (await Promise.all((await tokenConnectionIds(tokenId)).map(readConnection))).some((c) => c && c.state !== 'connected');
  while (!(await subscribedNow())) await new Promise((r) => setTimeout(r, 20));
};

/** The event ids of the customers created, from the log (their order is the log's: oldest first). */
const createdEventIds = async (api: Client, since: string) => {
  const { body } = await api.get(`/api/v1/events?since=${since}&types=customer.contact.created&limit=100`);
  return body.data.events.map((e: { eventId: string }) => e.eventId) as string[];
};

const refusal = (url: string) =>
  openSocket(url).then(
    () => 'opened',
    (error: { status?: number }) => error.status,
  );

describe('realtime tickets', () => {
  it('a ticket opens one socket: a second use is refused (401), as is an expired ticket (403) or none', async () => {
    const { api } = await t.tenant();
    const ticket = await ticketFor(api);
    expect(ticket.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/realtime\?ticket=rt_/);
    expect(ticket.url).not.toContain('sk_');
    const socket = await openSocket(ticket.url);
    expect(await refusal(ticket.url)).toBe(401);
    await socket.close();
    expect(await refusal(ticket.url.replace(/ticket=.*/, 'ticket=rt_unknown'))).toBe(401);
    expect(await refusal(ticket.url.replace(/\?.*/, ''))).toBe(401);
  });

  it('refuses a ticket past its 60 seconds with 403', async () => {
    const tenant = await t.tenant();
    const url = (await ticketFor(tenant.api)).url;
    await storeTicket(direct, hashToken('rt_expired'), {
      tenant: tenant.tenant,
      tokenId: tenant.tokenId,
      scopes: ['admin:all'],
      expiresAt: new Date(Date.now() - 1000).toISOString(),
    });
    expect(await refusal(url.replace(/ticket=.*/, 'ticket=rt_expired'))).toBe(403);
  });
});

describe('the realtime socket', () => {
  it('answers a bad message with an error frame and stays open; ping answers pong', async () => {
    const { api } = await t.tenant();
    const socket = await openSocket((await ticketFor(api)).url);
    socket.send('not json');
    socket.send({ action: 'subscribe', events: ['inbox.nope'] });
    socket.send({ action: 'dance' });
    socket.send({ action: 'ping' });
    await socket.until((f) => f.length === 4);
    expect(socket.frames.map((f) => f.type)).toEqual(['error', 'error', 'error', 'pong']);
    expect(socket.frames[0]).toMatchObject({ code: 'BAD_MESSAGE' });
    socket.send({ action: 'subscribe', events: ['customer.*'] });
    await socket.until((f) => f.some((x) => x.type === 'subscribed'));
    socket.send({ action: 'subscribe', events: ['crm.*'] });
    await socket.until((f) => f.some((x) => x.code === 'ALREADY_SUBSCRIBED'));
    await socket.close();
  });

  it('streams the events the subscription names, and only those a token may read', async () => {
    const owner = await t.tenant();
    const all = await subscribed(owner.api, ['*']);
    const { token } = await tokenFor([owner.workspaceId], ['tags:read', 'contacts:read']);
    const reader = client(t.stack.baseUrl, { token, workspaceId: owner.workspaceId });
    const limited = await subscribed(reader, ['*']);
    const { token: tagsOnly } = await tokenFor([owner.workspaceId], ['tags:read']);
    const refused = await subscribed(client(t.stack.baseUrl, { token: tagsOnly, workspaceId: owner.workspaceId }), ['inbox.*']);
    expect(refused.frames.at(-1)).toMatchObject({ type: 'error', code: 'FORBIDDEN' });

    const customerId = await newCustomer(owner.api);
    const conversation = await owner.api.post('/api/v1/inbox/conversations', { customerId, subject: 'Hello' });
    expect(conversation.status).toBe(201);
    await all.until((f) => f.some((x) => x.event?.eventType === 'inbox.conversation.created'));
    await newCustomer(owner.api);
    await limited.until((f) => f.filter((x) => x.event?.eventType === 'customer.contact.created').length === 2);
    expect(limited.frames.filter((f) => f.type === 'event').every((f) => f.event!.eventType.startsWith('customer.'))).toBe(true);
    expect(all.frames.find((f) => f.event?.eventType === 'customer.contact.created')!.event).toMatchObject({
      workspaceId: owner.workspaceId,
      livemode: false,
      data: { contact: { _id: customerId } },
    });
    await Promise.all([all.close(), limited.close(), refused.close()]);
  });

  it('keeps workspaces and modes apart', async () => {
    const a = await t.tenant();
    const b = await t.tenant();
    const aLive = await t.liveMode(a);
    const sockets = await Promise.all([subscribed(a.api, ['*']), subscribed(b.api, ['*']), subscribed(aLive.api, ['*'])]);
    const [aSocket, bSocket, liveSocket] = sockets;
    const ids = [await newCustomer(a.api), await newCustomer(b.api), await newCustomer(aLive.api)];
    await aSocket!.until((f) => f.some((x) => x.event?.data.contact && (x.event.data.contact as { _id: string })._id === ids[0]));
    await bSocket!.until((f) => f.some((x) => x.event?.data.contact && (x.event.data.contact as { _id: string })._id === ids[1]));
    await liveSocket!.until((f) => f.some((x) => x.event?.data.contact && (x.event.data.contact as { _id: string })._id === ids[2]));
    const seen = (s: TestSocket) => s.frames.filter((f) => f.type === 'event').map((f) => `${f.event!.workspaceId}/${f.event!.livemode}`);
    expect(new Set(seen(aSocket!))).toEqual(new Set([`${a.workspaceId}/false`]));
    expect(new Set(seen(bSocket!))).toEqual(new Set([`${b.workspaceId}/false`]));
    expect(new Set(seen(liveSocket!))).toEqual(new Set([`${a.workspaceId}/true`]));
    await Promise.all(sockets.map((s) => s.close()));
  });

  it('a client that misses 100 events and resumes with since gets exactly those 100, in order, then live ones', async () => {
    const { api, tenant } = await t.tenant();
    const first = await subscribed(api, ['customer.*']);
    await newCustomer(api);
    await first.until((f) => f.some((x) => x.type === 'event'));
    const last = first.eventIds().at(-1)!;
    await first.close();
    await writeBatched(tenant, 100);
    const missed = [...(await createdEventIds(api, last)), ...(await createdEventIds(api, last)).slice(100)];
    expect(missed).toHaveLength(100);
    const resumed = await subscribed(api, ['customer.*'], last);
    await resumed.until((f) => f.filter((x) => x.type === 'event').length === 100);
    await newCustomer(api);
    await resumed.until((f) => f.filter((x) => x.type === 'event').length === 101);
    const ids = resumed.eventIds();
    expect(ids.slice(0, 100)).toEqual(missed);
    expect(ids[100]! > missed.at(-1)!).toBe(true);
    expect(resumed.frames[0]!.type).toBe('subscribed');
    await resumed.close();
  }, 90_000);

  it('revoking the token closes its sockets', async () => {
    const owner = await t.tenant();
    const { token, record } = await tokenFor([owner.workspaceId], ['contacts:read']);
    const api = client(t.stack.baseUrl, { token, workspaceId: owner.workspaceId });
    const sockets = await Promise.all([subscribed(api, ['*']), openSocket((await ticketFor(api)).url)]);
    const unused = await ticketFor(api);
    expect((await owner.api.delete(`/api/v1/auth/tokens/${record._id}`)).status).toBe(200);
    for (const s of sockets) expect((await s.closed).code).toBe(1001);
    expect(await refusal(unused.url)).toBe(401);
    // Each closed socket was counted out of the tenant's presence: its pushes stop at one GetItem again.
    while (await tenantHasSockets(owner.tenant, new Date())) await new Promise((r) => setTimeout(r, 20));
  });

  it('caps a token at 100 sockets: the 101st handshake is 429 until one closes, and another token has a cap of its own', async () => {
    const owner = await t.tenant();
    const live = await t.liveMode(owner);
    const url = (await ticketFor(owner.api)).url;
    // Tickets of the owner's token, stored as the ticket route stores them (the route's own rate limit, 100
    // writes per 15 minutes, would stop a test that asks it for 102).
    let minted = 0;
    const ticketUrl = async () => {
      const ticket = `rt_cap_${process.pid}_${++minted}`;
      await storeTicket(direct, hashToken(ticket), {
        tenant: owner.tenant,
        tokenId: owner.tokenId,
        scopes: ['admin:all'],
        expiresAt: new Date(Date.now() + 60_000).toISOString(),
      });
      return url.replace(/ticket=.*/, `ticket=${ticket}`);
    };
    const first = await openSocket(url);
    const sockets: TestSocket[] = [first];
    while (sockets.length < 100) sockets.push(...(await Promise.all(Array.from({ length: 9 }, async () => openSocket(await ticketUrl())))));
    expect(sockets).toHaveLength(100);
    // Another token of the same workspace has a cap of its own.
    const other = await openSocket((await ticketFor(live.api)).url);
    expect(await refusal(await ticketUrl())).toBe(429);
    await sockets.pop()!.close();
    while ((await tokenConnectionIds(owner.tokenId)).length > 99) await new Promise((r) => setTimeout(r, 20));
    sockets.push(await openSocket(await ticketUrl()));
    await Promise.all([...sockets, other].map((s) => s.close()));
  });
});

describe('the realtime socket under load and failure', () => {
  const anchorOf = async (tenant: Tenant, api: Client) => {
    await writeCustomers(tenant, 1, 1);
    return (await api.get('/api/v1/events?types=customer.*&limit=1')).body.data.events[0].eventId as string;
  };

  it('resumes with since while 500 events are written before and during the replay: each exactly once, across two drops', async () => {
    const [backlog, live] = [450, 50];
    const total = backlog + live;
    const owner = await t.tenant();
    const anchor = await anchorOf(owner.tenant, owner.api);
    // The backlog behind the anchor, in transactions as full as DynamoDB takes them, written before the client subscribes.
    await writeBatched(owner.tenant, backlog);
    const parley = createParleyClient({ baseUrl: t.stack.baseUrl, token: owner.token, workspaceId: owner.workspaceId });
    const got: string[] = [];
    const stop = new AbortController();
    const reading = (async () => {
      for await (const e of parley.realtime.subscribe({ events: ['customer.*'], since: anchor, WebSocket, signal: stop.signal })) {
        got.push(e.eventId);
        if (got.length === total) return;
      }
    })();
    // More while the replay runs (it has sent some of the backlog, not all), so they arrive live at the seam.
    await until(() => got.length >= 20);
    const writing = writeCustomers(owner.tenant, live, 4);
    for (const mark of [150, 300]) {
      await until(() => got.length >= mark, 180_000);
      await dropSocketsOf(owner.tokenId);
    }
    await writing;
    await Promise.race([
      reading,
      new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${got.length} of ${total}`)), 180_000)),
    ]);
    stop.abort();
    const expected = await logIdsSince(owner.api, anchor);
    expect(expected).toHaveLength(total);
    expect(new Set(got).size).toBe(total);
    expect([...got].sort()).toEqual([...expected].sort());
  }, 300_000);

  it('replays an event the index holds only after the subscription (its push ran before it): the replay waits the index out', async () => {
    const owner = await t.tenant();
    const anchor = await anchorOf(owner.tenant, owner.api);
    const witness = await subscribed(owner.api, ['customer.*']);
    const late = await openSocket((await ticketFor(owner.api)).url);
    const [event] = await writeCustomers(owner.tenant, 1, 1);
    await witness.until((f) => f.some((x) => x.event?.eventId === event));
    // The push of `event` ran, and `late` had not subscribed: only its replay can give it. The index lags:
    // it shows `event` only 800 ms from now, later than the subscription below.
    hideFromIndex.set(event!, Date.now() + 800);
    late.send({ action: 'subscribe', events: ['customer.*'], since: anchor });
    await late.until((f) => f.some((x) => x.event?.eventId === event));
    expect(late.eventIds()).toEqual([event]);
    hideFromIndex.clear();
    await Promise.all([witness.close(), late.close()]);
  });

  it('a push that fails mid-batch closes the socket, and its client resumes with since and loses nothing', async () => {
    const owner = await t.tenant();
    const anchor = await anchorOf(owner.tenant, owner.api);
    const parley = createParleyClient({ baseUrl: t.stack.baseUrl, token: owner.token, workspaceId: owner.workspaceId });
    const got: string[] = [];
    const stop = new AbortController();
    const reading = (async () => {
      for await (const e of parley.realtime.subscribe({ events: ['customer.*'], since: anchor, WebSocket, signal: stop.signal })) {
        got.push(e.eventId);
        if (got.length === 60) return;
      }
    })();
    await writeCustomers(owner.tenant, 20, 1);
    await until(() => got.length >= 20);
    failPosts = 5;
    await writeCustomers(owner.tenant, 40, 4);
    await Promise.race([reading, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${got.length} of 60`)), 60_000))]);
    stop.abort();
    expect(failPosts).toBe(0);
    const expected = await logIdsSince(owner.api, anchor);
    expect(new Set(got).size).toBe(60);
    expect([...got].sort()).toEqual([...expected].sort());
  }, 90_000);

  it('a subscription delivered again mid-replay (a repeated bus event, a retried run) closes the socket instead of replaying twice; the client resumes once', async () => {
    const owner = await t.tenant();
    const anchor = await anchorOf(owner.tenant, owner.api);
    await writeCustomers(owner.tenant, 30, 3);
    const expected = await logIdsSince(owner.api, anchor);
    let release = () => {};
    holdEventPosts = { after: 10, gate: new Promise<void>((r) => (release = r)) };
    const first = await subscribed(owner.api, ['customer.*'], anchor);
    await first.until((f) => f.filter((x) => x.type === 'event').length === 10);
    const [connectionId] = await tokenConnectionIds(owner.tokenId);
    await route(wiring.rules, busEvent(SOCKET_SOURCE, SUBSCRIBED_DETAIL_TYPE, { connectionId }));
    await first.closed;
    holdEventPosts = undefined;
    release();
    const before = first.eventIds();
    expect(first.frames.filter((f) => f.type === 'subscribed')).toHaveLength(1);
    expect(before).toEqual(expected.slice(0, 10));
    const resumed = await subscribed(owner.api, ['customer.*'], before.at(-1) ?? anchor);
    await resumed.until((f) => f.filter((x) => x.type === 'event').length === expected.length - before.length);
    expect([...before, ...resumed.eventIds()]).toEqual(expected);
    await resumed.close();
  });

  it('a client that stops reading does not stall the others', async () => {
    const owner = await t.tenant();
    const stalled = await subscribed(owner.api, ['customer.*']);
    stalled.ws.pause();
    const reader = await subscribed(owner.api, ['customer.*']);
    await writeCustomers(owner.tenant, 60, 4);
    await reader.until((f) => f.filter((x) => x.type === 'event').length === 60);
    expect(new Set(reader.eventIds()).size).toBe(60);
    stalled.ws.resume();
    await Promise.all([stalled.close(), reader.close()]);
  }, 60_000);
});

/**
 * The events log's index lagging behind the table, as a global secondary index may on AWS: a Query of gsi2
 * does not see an event listed here until the time it maps to.
 */
const hideFromIndex = new Map<string, number>();
registerClientPlugin({
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const input = args.input as { IndexName?: string };
        if (context.commandName !== 'QueryCommand' || input.IndexName !== 'gsi2' || hideFromIndex.size === 0) return result;
        const output = result.output as { Items?: Record<string, { S?: string } | string>[]; Count?: number };
        const idOf = (item: Record<string, { S?: string } | string>) => {
          const sk = item.gsi2sk;
          return typeof sk === 'string' ? sk : sk?.S;
        };
        output.Items = output.Items?.filter((item) => Date.now() >= (hideFromIndex.get(idOf(item) ?? '') ?? 0));
        output.Count = output.Items?.length;
        return result;
      },
      { step: 'build', name: 'testIndexLag' },
    );
  },
});

/** The management API fails this many PostToConnection calls (a push failing mid-batch), then recovers. */
let failPosts = 0;
/** While set, event frames past the first `after` wait for `gate` before they are posted: a push held mid-replay. */
let holdEventPosts: { after: number; gate: Promise<void> } | undefined;
const isEventFrame = (data?: Uint8Array) => data !== undefined && Buffer.from(data.subarray(0, 15)).toString() === '{"type":"event"';
registerClientPlugin({
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'PostToConnectionCommand' && failPosts > 0) {
          failPosts--;
          throw new Error('injected: the management API failed mid-batch');
        }
        const hold = holdEventPosts;
        if (context.commandName === 'PostToConnectionCommand' && hold && isEventFrame((args.input as { Data?: Uint8Array }).Data))
          if (hold.after-- <= 0) await hold.gate;
        return next(args);
      },
      { step: 'build', name: 'testFailPosts' },
    );
  },
});

describe('the guide’s Node client (docs/guide/realtime.md)', () => {
  it('prints events live and, dropped, resumes after the newest one it saw', async () => {
    const owner = await t.tenant();
    const seen: string[] = [];
    const stop = new AbortController();
    const running = tail(t.stack.baseUrl, owner.token, owner.workspaceId, (e) => seen.push(e.eventId), stop.signal);
    // Written once its socket has subscribed: a subscription without `since` sees the events after it only.
    await waitSubscribed(owner.tokenId);
    await writeCustomers(owner.tenant, 5, 1);
    await until(() => seen.length >= 5);
    await dropSocketsOf(owner.tokenId);
    await writeCustomers(owner.tenant, 5, 1);
    await until(() => seen.length >= 10);
    stop.abort();
    await running;
    const logged = (await owner.api.get('/api/v1/events?types=customer.*')).body.data.events.map((e: { eventId: string }) => e.eventId);
    // Live frames follow the order the pushes ran in; each event arrives once and none is missed.
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort()).toEqual([...logged].sort());
  }, 60_000);
});

describe('parley events tail', () => {
  it('prints the events of the types named, one a line, until stopped', async () => {
    const owner = await t.tenant();
    const api = createParleyClient({ baseUrl: t.stack.baseUrl, token: owner.token, workspaceId: owner.workspaceId });
    const lines: string[] = [];
    const stop = new AbortController();
    const session = { api, workspaceId: owner.workspaceId, livemode: false };
    const tailing = tailEvents(session, { types: 'customer.contact.*' }, stop.signal, (l) => lines.push(l));
    await waitSubscribed(owner.tokenId);
    const conversationOf = await newCustomer(owner.api);
    await owner.api.post('/api/v1/inbox/conversations', { customerId: conversationOf, subject: 'Not printed' });
    const [written] = await writeCustomers(owner.tenant, 1, 1);
    await until(() => lines.length >= 2 && lines.some((l) => l.endsWith(written!)));
    stop.abort();
    await tailing;
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\S+Z {2}customer\.contact\.created {2}[0-9a-f]{24}$/);
  });
});

it("a socket forgotten by many pushes at once is counted out of its tenant's presence once", async () => {
  const owner = await t.tenant();
  const claims = {
    tenant: owner.tenant,
    tokenId: owner.tokenId,
    scopes: ['admin:all'],
    expiresAt: new Date(Date.now() + 60_000).toISOString(),
  };
  await storeConnection(`kept-${process.pid}=`, claims, new Date());
  // Each round: a socket that every push of a batch finds gone at once, as a restarted push function finds a killed one.
  for (let round = 0; round < 5; round++) {
    const gone = `gone-${process.pid}-${round}=`;
    await storeConnection(gone, claims, new Date());
    await Promise.all(Array.from({ length: 30 }, () => forgetConnection(gone)));
    expect(await readConnection(gone)).toBeUndefined();
    expect(await tenantHasSockets(owner.tenant, new Date())).toBe(true);
  }
});
