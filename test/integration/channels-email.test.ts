import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONVERSATIONS, conversationOn, createChannel, messageIn, postInbound } from '../support/channels';
import { useTestStack } from '../support/stack';
import { eventually } from '../support/webhooks';

const ctx = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

/** A real SMTP server on 127.0.0.1 in this process, requiring a login; every accepted email is parsed and kept. */
const mails: ParsedMail[] = [];
let server: SMTPServer;
let port: number;
beforeAll(async () => {
  server = new SMTPServer({
    authOptional: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) =>
      auth.username === 'parley' && auth.password === 'smtp-secret'
        ? callback(null, { user: 'parley' })
        : callback(new Error('Invalid username or password')),
    onData: (stream, _session, callback) => {
      simpleParser(stream).then((mail) => {
        mails.push(mail);
        callback();
      }, callback);
    },
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  port = (server.server.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

const emailChannel = (api: Awaited<ReturnType<typeof ctx.tenant>>['api'], password: string) =>
  createChannel(api, {
    type: 'email',
    name: 'Acme Support',
    config: { from: 'support@acme.test', host: '127.0.0.1', port, username: 'parley' },
    secrets: { smtpPassword: password },
  });

it('a reply goes out by SMTP with the right headers, and a raw MIME answer threads back into the same conversation', {
  timeout: 60_000,
}, async () => {
  const { api } = await ctx.tenant();
  const channel = await emailChannel(api, 'smtp-secret');
  const { conversation, customer } = await conversationOn(api, channel._id, { email: 'jane@example.com', name: 'Jane Doe' });
  // Created with the account and no `channel`: it is an email conversation.
  expect(conversation.channel).toBe('email');
  const labelled = await api.post(CONVERSATIONS, { customerId: customer._id, channelId: channel._id, channel: 'web' });
  expect(labelled.body.data.conversation.channel).toBe('web');
  await api.patch(`${CONVERSATIONS}/${conversation._id}`, { subject: 'Your order' });
  const id = (await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { content: 'Your order has shipped.' })).body.data.message
    ._id;

  const mail = await eventually(async () => mails.find((m) => m.messageId === `<${id}@acme.test>`));
  expect(mail.from?.value[0]).toMatchObject({ address: 'support@acme.test', name: 'Acme Support' });
  expect((mail.to as { value: { address: string }[] }).value[0]!.address).toBe('jane@example.com');
  expect(mail.subject).toBe('Your order');
  expect(mail.text?.trim()).toBe('Your order has shipped.');
  await eventually(async () => (await messageIn(api, conversation._id, id)).deliveryStatus === 'sent');

  const answer = [
    'From: Jane Doe <jane@example.com>',
    'To: support@acme.test',
    'Subject: Re: Your order',
    'Message-ID: <answer-1@example.com>',
    `In-Reply-To: <${id}@acme.test>`,
    `References: <${id}@acme.test>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Thanks, when will it arrive?',
    '',
  ].join('\r\n');
  const inbound = await postInbound(api, channel._id, channel.signingSecret, { type: 'email', mime: answer });
  expect(inbound.status).toBe(200);
  expect(inbound.body.data.inbound.conversation._id).toBe(conversation._id);
  expect(inbound.body.data.inbound.message).toMatchObject({
    type: 'incoming',
    content: 'Thanks, when will it arrive?',
    externalId: '<answer-1@example.com>',
  });
  expect(inbound.body.data.inbound.message.author.id).toBe(customer._id);

  const second = (await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { content: 'Tomorrow.' })).body.data.message._id;
  const followUp = await eventually(async () => mails.find((m) => m.messageId === `<${second}@acme.test>`));
  expect(followUp.inReplyTo).toBe('<answer-1@example.com>');
  expect(followUp.references).toEqual([`<${id}@acme.test>`, '<answer-1@example.com>']);

  const replay = await postInbound(api, channel._id, channel.signingSecret, { type: 'email', mime: answer });
  expect(replay.body.data.inbound.duplicate).toBe(true);
});

it('a refused SMTP login fails the reply and puts the account in error', { timeout: 60_000 }, async () => {
  const { api } = await ctx.tenant();
  const channel = await emailChannel(api, 'wrong-password');
  const { conversation } = await conversationOn(api, channel._id);
  const id = (await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { content: 'Hello' })).body.data.message._id;
  const failed = await eventually(async () => {
    const m = await messageIn(api, conversation._id, id);
    return m.deliveryStatus === 'failed' && m;
  });
  expect(failed.failureReason).toBe('smtp_auth_failed');
  expect((await api.get(`/api/v1/channels/${channel._id}/status`)).body.data.status).toMatchObject({
    status: 'error',
    lastError: { reason: 'smtp_auth_failed' },
  });
});
