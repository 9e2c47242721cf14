import { describe, expect, it } from 'vitest';
import { expectError } from '../support/api';
import { outboxEvents } from '../support/outbox';
import { useTestStack } from '../support/stack';
import { eventually } from '../support/webhooks';
import { answerIncoming } from '../../shared/ai/auto-reply';
import { DEFAULT_SETTINGS } from '../../shared/domain/ai/settings';
import { direct } from '../../shared/data/unit';

/** Knowledge base, search, suggestions and automatic replies, through HTTP against the local stack and its event workers. */
const env = useTestStack();
const ARTICLES = '/api/v1/ai/knowledge-base/articles';
const SEARCH = '/api/v1/ai/knowledge-base/search';
const SETTINGS = '/api/v1/ai/settings';
const SUGGEST = '/api/v1/ai/suggest-reply';
const INCOMING = '/api/v1/inbox/messages/incoming';

const CORPUS = [
  {
    title: 'Resetting your password',
    body: 'To reset your password, open Settings > Security and click **Reset password**.\n\nWe email you a link that stays valid for one hour.',
    tags: ['account'],
  },
  {
    title: 'Refund policy',
    body: 'Refunds are issued within 14 days of purchase.\n\nContact billing to request a refund for an annual subscription.',
    tags: ['billing'],
  },
  { title: 'Shipping times', body: 'Orders ship within two business days. International shipping takes 7 to 10 days.', tags: ['orders'] },
  {
    title: 'Two-factor authentication',
    body: 'Enable two-factor authentication under Settings > Security with an authenticator app.',
    tags: ['account', 'security'],
  },
  { title: 'Internal escalation runbook', body: 'Password escalation steps for staff only.', published: false },
];

type Api = Awaited<ReturnType<typeof env.tenant>>['api'];

const seed = async (api: Api) => {
  const ids: string[] = [];
  for (const a of CORPUS) {
    const res = await api.post(ARTICLES, a);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    ids.push(res.body.data.article._id);
  }
  return ids;
};

const titles = async (api: Api, q: string) => {
  const res = await api.get(`${SEARCH}?q=${encodeURIComponent(q)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.passages as { title: string }[]).map((p) => p.title);
};

/** Waits until the index consumer has caught up with the article changes: the probe query's top hit is `title` (or nothing). */
const indexed = (api: Api, q: string, title: string | undefined) => eventually(async () => (await titles(api, q))[0] === title, 20_000);
/** Every published article of the corpus is searchable: each is indexed on its own event, in no set order. */
const corpusIndexed = (api: Api) =>
  Promise.all(
    [
      ['password', 'Resetting your password'],
      ['refund', 'Refund policy'],
      ['shipping', 'Shipping times'],
      ['authenticator', 'Two-factor authentication'],
    ].map(([q, title]) => indexed(api, q!, title)),
  );

describe('knowledge-base articles', () => {
  it('creates, reads, lists without bodies, updates (a no-op PATCH emits nothing) and deletes, with ai.article.* events', async () => {
    const t = await env.tenant();
    const created = await t.api.post(ARTICLES, { title: ' FAQ ', body: '# Hello\n\nWorld', tags: ['a', 'a', 'b'], locale: 'pt-br' });
    expect(created.status).toBe(201);
    const article = created.body.data.article;
    expect(article).toMatchObject({ title: 'FAQ', body: '# Hello\n\nWorld', tags: ['a', 'b'], published: true, locale: 'pt-BR' });
    expect((await t.api.get(`${ARTICLES}/${article._id}`)).body.data.article).toEqual(article);
    const list = await t.api.get(ARTICLES);
    expect(list.body.data.pagination.total).toBe(1);
    expect(list.body.data.articles).toEqual([{ ...article, body: undefined }].map(({ body: _b, ...rest }) => rest));
    expect((await t.api.patch(`${ARTICLES}/${article._id}`, { title: 'FAQ' })).body.data.article).toEqual(article);
    const edited = await t.api.patch(`${ARTICLES}/${article._id}`, { published: false });
    expect(edited.body.data.article).toMatchObject({ published: false });
    expect((await t.api.delete(`${ARTICLES}/${article._id}`)).body.data).toMatchObject({ deleted: true, article: { _id: article._id } });
    expectError(await t.api.get(`${ARTICLES}/${article._id}`), 404, 'NOT_FOUND');
    expect((await t.api.get(ARTICLES)).body.data.pagination.total).toBe(0);
    const events = (await outboxEvents(t.workspaceId)).filter((e) => e.eventType.startsWith('ai.'));
    expect(events.map((e) => e.eventType)).toEqual(['ai.article.created', 'ai.article.updated', 'ai.article.deleted']);
    expect(events[1]!.changes).toEqual({ published: [true, false] });
  });

  it('refuses bad input with the contract error wrapper', async () => {
    const t = await env.tenant();
    expectError(await t.api.post(ARTICLES, { title: 'x' }), 400, 'BAD_REQUEST');
    expectError(await t.api.post(ARTICLES, { title: 'x', body: 'y', locale: 'not a locale' }), 422, 'VALIDATION_ERROR');
    expectError(await t.api.get(`${SEARCH}?q=`), 422, 'VALIDATION_ERROR');
    expectError(await t.api.get(`${SEARCH}?q=a&limit=51`), 422, 'VALIDATION_ERROR');
  });

  it('is scoped: ai:read cannot write, no scope cannot read, and another workspace sees none of it', async () => {
    const t = await env.tenant();
    const [id] = await seed(t.api);
    const reader = await env.tenant(['ai:read']);
    expectError(await reader.api.post(ARTICLES, CORPUS[0]), 403, 'FORBIDDEN');
    const inbox = await env.tenant(['inbox:read']);
    expectError(await inbox.api.get(`${SEARCH}?q=password`), 403, 'FORBIDDEN');
    const other = await env.tenant();
    expectError(await other.api.get(`${ARTICLES}/${id}`), 404, 'NOT_FOUND');
    expectError(await other.api.patch(`${ARTICLES}/${id}`, { title: 'mine' }), 404, 'NOT_FOUND');
    await indexed(t.api, 'password', 'Resetting your password');
    expect(await titles(other.api, 'password')).toEqual([]);
  });
});

describe('knowledge-base search', () => {
  it('ranks the expected article first for typo’d and partial queries, never shows unpublished ones, and scores passages', async () => {
    const t = await env.tenant();
    await seed(t.api);
    await corpusIndexed(t.api);
    expect((await titles(t.api, 'pasword reset'))[0]).toBe('Resetting your password');
    expect((await titles(t.api, 'refun'))[0]).toBe('Refund policy');
    expect((await titles(t.api, 'internationl shiping'))[0]).toBe('Shipping times');
    expect((await titles(t.api, 'two-factr'))[0]).toBe('Two-factor authentication');
    expect(await titles(t.api, 'escalation runbook')).toEqual([]);
    const res = await t.api.get(`${SEARCH}?q=${encodeURIComponent('reset password link')}&limit=2`);
    const passages = res.body.data.passages;
    expect(passages.length).toBeLessThanOrEqual(2);
    expect(passages[0]).toMatchObject({ title: 'Resetting your password', confidence: 1, locale: 'en' });
    expect(passages[0].text).toContain('Reset password');
    expect(passages[0].score).toBeGreaterThan(passages[1]?.score ?? 0);
  });

  it('stays current after an edit and after a delete', async () => {
    const t = await env.tenant();
    const ids = await seed(t.api);
    await corpusIndexed(t.api);
    await t.api.patch(`${ARTICLES}/${ids[2]}`, { title: 'Delivery by courier', body: 'A courier brings every parcel within three days.' });
    await indexed(t.api, 'courier', 'Delivery by courier');
    expect(await titles(t.api, 'shipping')).toEqual([]);
    await t.api.delete(`${ARTICLES}/${ids[1]}`);
    await indexed(t.api, 'refund', undefined);
    await t.api.patch(`${ARTICLES}/${ids[4]}`, { published: true });
    await indexed(t.api, 'runbook', 'Internal escalation runbook');
  });
});

describe('suggestions and automatic replies', () => {
  const incoming = async (api: Api, content: string, identifier = `c${Math.random()}@example.com`) => {
    const res = await api.post(INCOMING, { channel: 'email', customer: { identifier, email: identifier }, content });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data as { conversation: { _id: string }; message: { _id: string } };
  };
  const messages = async (api: Api, conversationId: string) =>
    (await api.get(`/api/v1/inbox/conversations/${conversationId}/messages`)).body.data.messages as {
      type: string;
      author: { type: string };
      content: string;
    }[];
  const envelopeOf = async (workspaceId: string, messageId: string) =>
    (await outboxEvents(workspaceId, 'inbox.message.received')).find((e) => (e.data.message as { _id: string })._id === messageId)!;

  it('suggests passages and a reply for the latest incoming messages, with the settings’ threshold and tone', async () => {
    const t = await env.tenant();
    await seed(t.api);
    await corpusIndexed(t.api);
    const { conversation } = await incoming(t.api, 'pasword reset please');
    expectError(await t.api.post(SUGGEST, { conversationId: conversation._id }), 409, 'CONFLICT');
    expect((await t.api.get(SETTINGS)).body.data.settings).toEqual({ ...DEFAULT_SETTINGS, updatedAt: null });
    const settings = await t.api.patch(SETTINGS, { enabled: true, tone: 'friendly' });
    expect(settings.body.data.settings).toMatchObject({ enabled: true, autoReply: 'off', tone: 'friendly', confidenceThreshold: 0.8 });
    expect((await t.api.get(SETTINGS)).body.data.settings).toEqual(settings.body.data.settings);
    const res = await t.api.post(SUGGEST, { conversationId: conversation._id });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body.data.suggestion;
    expect(s.passages[0]).toMatchObject({ title: 'Resetting your password' });
    expect(s.confidence).toBeCloseTo(2 / 3, 3);
    expect(s.reply).toMatch(/^Hi there! To reset your password.*Hope this helps!$/s);
    expect(s.decision).toEqual({ action: 'handoff', reason: 'low_confidence' });
    await t.api.patch(SETTINGS, { confidenceThreshold: 0.6 });
    expect((await t.api.post(SUGGEST, { conversationId: conversation._id })).body.data.suggestion.decision).toEqual({ action: 'reply' });
    expectError(await t.api.post(SUGGEST, { conversationId: 'aaaaaaaaaaaaaaaaaaaaaaaa' }), 422, 'VALIDATION_ERROR');
  });

  it('auto-replies once per incoming message when confident, and leaves handoff keywords and low confidence to an agent', {
    timeout: 60_000,
  }, async () => {
    const t = await env.tenant();
    await seed(t.api);
    await corpusIndexed(t.api);
    await t.api.patch(SETTINGS, { enabled: true, autoReply: 'auto', confidenceThreshold: 0.9 });

    const confident = await incoming(t.api, 'How do I reset my password?');
    const replied = await eventually(
      async () => (await messages(t.api, confident.conversation._id)).find((m) => m.author.type === 'ai'),
      20_000,
    );
    expect(replied).toMatchObject({ type: 'outgoing', author: { type: 'ai', id: null } });
    expect(replied.content).toContain('To reset your password');
    expect((await outboxEvents(t.workspaceId, 'inbox.message.sent')).length).toBe(1);

    // The event delivered again (as EventBridge may): the guard item keeps the reply single.
    const again = await answerIncoming(direct, await envelopeOf(t.workspaceId, confident.message._id));
    expect(again.outcome).toBe('duplicate');
    expect((await messages(t.api, confident.conversation._id)).filter((m) => m.author.type === 'ai')).toHaveLength(1);

    const human = await incoming(t.api, 'I need a human to reset my password');
    expect((await answerIncoming(direct, await envelopeOf(t.workspaceId, human.message._id))).suggestion?.decision).toEqual({
      action: 'handoff',
      reason: 'keyword',
      keywords: ['human'],
    });
    const vague = await incoming(t.api, 'password banana');
    expect((await answerIncoming(direct, await envelopeOf(t.workspaceId, vague.message._id))).suggestion?.decision).toEqual({
      action: 'handoff',
      reason: 'low_confidence',
    });
    for (const c of [human, vague]) expect((await messages(t.api, c.conversation._id)).map((m) => m.type)).toEqual(['incoming']);

    // `suggest` leaves the reply as a private note for the agent instead.
    await t.api.patch(SETTINGS, { autoReply: 'suggest' });
    const noted = await incoming(t.api, 'reset password');
    expect((await answerIncoming(direct, await envelopeOf(t.workspaceId, noted.message._id))).outcome).toMatch(/^(suggested|duplicate)$/);
    expect((await messages(t.api, noted.conversation._id)).map((m) => [m.type, m.author.type])).toEqual([
      ['incoming', 'customer'],
      ['note', 'ai'],
    ]);
  });
});
