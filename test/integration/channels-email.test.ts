import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CONVERSATIONS, conversationOn, createChannel, messageIn, postInbound } from '../support/channels';
import { useTestStack } from '../support/stack';
import { PDF_BYTES, PNG_BYTES, readyFile, sha256 } from '../support/files';
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

it("files go out as MIME parts read from the bucket, and an email's attachments come in as verified files on its message", {
  timeout: 60_000,
}, async () => {
  const { api } = await ctx.tenant();
  const channel = await emailChannel(api, 'smtp-secret');
  const { conversation } = await conversationOn(api, channel._id, { email: 'jane@example.com', name: 'Jane Doe' });
  const pdf = await readyFile(api, 'invoice.pdf', PDF_BYTES, 'application/pdf');
  const id = (await api.post(`${CONVERSATIONS}/${conversation._id}/messages`, { attachments: [{ fileId: pdf._id }] })).body.data.message
    ._id;
  const mail = await eventually(async () => mails.find((m) => m.messageId === `<${id}@acme.test>`));
  expect(mail.attachments.map((a) => ({ name: a.filename, type: a.contentType, sha: sha256(a.content) }))).toEqual([
    { name: 'invoice.pdf', type: 'application/pdf', sha: sha256(PDF_BYTES) },
  ]);

  const boundary = 'parley-boundary';
  const answer = [
    'From: Jane Doe <jane@example.com>',
    'To: support@acme.test',
    'Subject: Re: invoice',
    'Message-ID: <answer-files@example.com>',
    `In-Reply-To: <${id}@acme.test>`,
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Here is the photo, and a fake PDF.',
    `--${boundary}`,
    'Content-Type: image/png; name="photo.png"',
    'Content-Disposition: attachment; filename="photo.png"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(PNG_BYTES).toString('base64'),
    `--${boundary}`,
    'Content-Type: application/pdf; name="fake.pdf"',
    'Content-Disposition: attachment; filename="fake.pdf"',
    'Content-Transfer-Encoding: base64',
    '',
    Buffer.from(PNG_BYTES).toString('base64'),
    `--${boundary}--`,
    '',
  ].join('\r\n');
  const inbound = await postInbound(api, channel._id, channel.signingSecret, { type: 'email', mime: answer });
  expect(inbound.status, JSON.stringify(inbound.body)).toBe(200);
  const { message } = inbound.body.data.inbound;
  expect(message.conversationId).toBe(conversation._id);
  // The PNG is verified ready and attached; the PNG named a PDF is rejected and left off.
  expect(message.attachments).toEqual([
    { fileId: expect.any(String), name: 'photo.png', contentType: 'image/png', size: PNG_BYTES.length },
  ]);
  const file = (await api.get(`/api/v1/files/${message.attachments[0].fileId}`)).body.data.file;
  expect(file).toMatchObject({ status: 'ready', conversationId: conversation._id });
  const download = await fetch(file.download.url);
  expect(sha256(new Uint8Array(await download.arrayBuffer()))).toBe(sha256(PNG_BYTES));
});
