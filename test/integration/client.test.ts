import { describe, expect, it } from 'vitest';
import {
  createParleyClient,
  ParleyAuthenticationError,
  ParleyConflictError,
  ParleyInvalidRequestError,
  ParleyNotFoundError,
  ParleyPermissionError,
} from '../../packages/client/src/index';
import { useTestStack } from '../support/stack';
import { createTenant } from '../support/tenants';

/** The typed client against the real local stack: the same HTTP chain and handlers as production. */
const env = useTestStack();

const parley = async (scopes?: Parameters<typeof createTenant>[0]) => {
  const t = await createTenant(scopes);
  return { ...t, client: createParleyClient({ baseUrl: env.stack.baseUrl, token: t.token, workspaceId: t.workspaceId }) };
};
const caught = (p: Promise<unknown>) =>
  p.then(
    () => expect.unreachable('no error thrown'),
    (e: unknown) => e,
  );

describe('the typed client against the local stack', () => {
  it('pages through every conversation with for await, however small the page', async () => {
    const { client } = await parley();
    const { customer } = (await client.post('/contacts/customers', { body: { name: 'Ada', email: 'ada@example.com' } })).data as {
      customer: { _id: string };
    };
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      const { conversation } = (await client.post('/inbox/conversations', { body: { customerId: customer._id, subject: `c${i}` } }))
        .data as { conversation: { _id: string } };
      made.push(conversation._id);
    }
    const seen: string[] = [];
    for await (const c of client.list('/inbox/conversations', { params: { query: { limit: 2 } } })) seen.push((c as { _id: string })._id);
    expect(seen.sort()).toEqual(made.sort());

    const all: unknown[] = [];
    for await (const c of client.list('/inbox/conversations')) all.push(c);
    expect(all).toHaveLength(5);
  });

  it('pages through tags, and stops at once on an empty list', async () => {
    const { client } = await parley();
    for await (const _ of client.list('/tags')) expect.unreachable('a new workspace has no tags');
    const names = Array.from({ length: 7 }, (_, i) => `tag-${i}`);
    for (const name of names) await client.post('/tags', { body: { name } });
    const listed: string[] = [];
    for await (const t of client.list('/tags', { params: { query: { limit: 3 } } })) listed.push((t as { name: string }).name);
    expect(listed.sort()).toEqual(names);
  });

  it('throws typed errors with the code, message and field errors the API answered', async () => {
    const { client, token } = await parley(['tags:read']);
    const invalid = await caught(
      createParleyClient({ baseUrl: env.stack.baseUrl, token, workspaceId: (await parley()).workspaceId }).get('/tags'),
    );
    expect(invalid).toBeInstanceOf(ParleyPermissionError);
    expect(invalid).toMatchObject({ status: 403, code: 'WORKSPACE_ACCESS_DENIED' });

    const forbidden = await caught(client.post('/tags', { body: { name: 'x' } }));
    expect(forbidden).toBeInstanceOf(ParleyPermissionError);
    expect(forbidden).toMatchObject({ status: 403, code: 'FORBIDDEN', requestId: expect.any(String) });

    const missing = await caught(client.get('/tags/{id}', { params: { path: { id: 'f'.repeat(24) } } }));
    expect(missing).toBeInstanceOf(ParleyNotFoundError);
    expect(missing).toMatchObject({ status: 404, code: 'NOT_FOUND' });

    const badToken = await caught(createParleyClient({ baseUrl: env.stack.baseUrl, token: `sk_test_${'x'.repeat(48)}` }).get('/tags'));
    expect(badToken).toBeInstanceOf(ParleyAuthenticationError);
    expect(badToken).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const { client: writer } = await parley();
    const unprocessable = await caught(writer.get('/tags', { params: { query: { limit: 1000 } } }));
    expect(unprocessable).toBeInstanceOf(ParleyInvalidRequestError);
    expect(unprocessable).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect((unprocessable as ParleyInvalidRequestError).fieldErrors).toEqual([{ path: 'limit', message: expect.any(String) }]);
  });

  it('sends one Idempotency-Key per call: the same key replays the first answer, a reused key with another body is a conflict', async () => {
    const { client } = await parley();
    const first = await client.post('/tags', { body: { name: 'once' }, idempotencyKey: 'tag-once-1' });
    const replay = await client.post('/tags', { body: { name: 'once' }, idempotencyKey: 'tag-once-1' });
    expect(replay.data).toEqual(first.data);
    const conflict = await caught(client.post('/tags', { body: { name: 'other' }, idempotencyKey: 'tag-once-1' }));
    expect(conflict).toBeInstanceOf(ParleyConflictError);
    // Without a key of the caller's, each call makes its own, so a second identical call is not a replay:
    // it reaches the handler, which refuses the duplicate name.
    await client.post('/tags', { body: { name: 'twice' } });
    expect((await caught(client.post('/tags', { body: { name: 'twice' } }))) as ParleyConflictError).toMatchObject({ status: 409 });
  });

  it("acts in the workspace a request names, over the client's default", async () => {
    const a = await parley();
    const b = await parley();
    const both = createParleyClient({ baseUrl: env.stack.baseUrl, token: a.token, workspaceId: a.workspaceId });
    await a.client.post('/tags', { body: { name: 'in-a' } });
    const inA = (await both.get('/tags')).data as { tags: { name: string }[] };
    expect(inA.tags.map((t) => t.name)).toEqual(['in-a']);
    const elsewhere = await caught(both.get('/tags', { workspaceId: b.workspaceId }));
    expect(elsewhere).toMatchObject({ status: 403, code: 'WORKSPACE_ACCESS_DENIED' });
  });
});
