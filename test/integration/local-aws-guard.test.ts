import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ChangeMessageVisibilityCommand, SendMessageBatchCommand } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../../shared/aws/dynamo';
import { sqs } from '../../shared/aws/sqs';
import { config } from '../../shared/config';
import { invoke } from '../../infra/local/lambda';
import { route, busEvent } from '../../infra/local/event-router';
import type { Access, EventRule, FunctionKind } from '../../functions/wiring/types';
import { CHANNEL_SECRETS_KEY } from '../../functions/wiring/channels';
import type { AwsCall } from '../support/fixtures/aws-calls';
import { useTestStack } from '../support/stack';

const env = useTestStack({ gateway: false, workers: false });

const fixture = (access: Access) => ({ handler: 'test/support/fixtures/aws-calls.ts', access });
const run = (access: Access, kind: FunctionKind, event: AwsCall) => invoke<string>(fixture(access), { kind }, event);
const queueUrl = () => env.stack.queues['webhook-deliveries']!.url;
const dlqUrl = () => env.stack.queues['webhook-deliveries']!.dlqUrl;

describe('the local runtime holds each function to the IAM grants of its wiring access', () => {
  it('refuses an UpdateItem from a function whose wiring grants only read, with AccessDeniedException', async () => {
    await expect(run({ table: 'read' }, 'event', { call: 'update', pk: 'WS#x' })).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('is not authorized to perform: dynamodb:UpdateItem'),
    });
  });

  it('lets the same UpdateItem through a write grant', async () => {
    await expect(run({ table: 'write' }, 'event', { call: 'update', pk: 'WS#x' })).resolves.toBe('ok');
  });

  it('lets a read-only HTTP function update the token and rate-limit items its request pipeline counts on, and nothing else', async () => {
    await expect(run({ table: 'read' }, 'http', { call: 'update', pk: 'TOKEN#abc' })).resolves.toBe('ok');
    await expect(run({ table: 'read' }, 'http', { call: 'update', pk: 'RL#AUTHFAIL#1.2.3.4#0' })).resolves.toBe('ok');
    await expect(run({ table: 'read' }, 'http', { call: 'update', pk: 'WS#x' })).rejects.toMatchObject({ name: 'AccessDeniedException' });
    await expect(run({ table: 'read' }, 'http', { call: 'update', pk: 'RL#other#0' })).rejects.toMatchObject({
      name: 'AccessDeniedException',
    });
  });

  it('authorises a transaction part by part: a read grant is refused on its Put', async () => {
    await expect(run({ table: 'read' }, 'http', { call: 'transact', pk: 'WS#y' })).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('dynamodb:PutItem'),
    });
    await expect(run({ table: 'write' }, 'http', { call: 'transact', pk: 'WS#y' })).resolves.toBe('ok');
  });

  it('lets a function send only to the queues its wiring names', async () => {
    await expect(run({ table: 'read', queues: ['webhook-deliveries'] }, 'http', { call: 'send', queueUrl: queueUrl() })).resolves.toBe(
      'ok',
    );
    await expect(
      run({ table: 'read', queues: ['webhook-deliveries'] }, 'http', { call: 'send', queueUrl: dlqUrl() }),
    ).rejects.toMatchObject({
      name: 'AccessDenied',
      message: expect.stringContaining('sqs:SendMessage'),
    });
    await expect(run({ table: 'read' }, 'http', { call: 'send', queueUrl: queueUrl() })).rejects.toMatchObject({ name: 'AccessDenied' });
  });

  it('refuses a function without a grant on the channel-secrets key the secret store, with AccessDeniedException', async () => {
    await expect(run({ table: 'write' }, 'http', { call: 'seal' })).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining(
        'is not authorized to perform: kms:Encrypt on resource: arn:aws:kms:us-east-1:000000000000:alias/channel-secrets',
      ),
    });
  });

  it('lets the secret store seal with an encrypt grant, and open only with a decrypt grant too', async () => {
    const key = CHANNEL_SECRETS_KEY;
    await expect(run({ table: 'write', keys: { [key]: ['encrypt'] } }, 'http', { call: 'seal' })).resolves.toBe('ok');
    await expect(run({ table: 'write', keys: { [key]: ['encrypt'] } }, 'http', { call: 'seal', open: true })).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('kms:Decrypt'),
    });
    await expect(run({ table: 'write', keys: { [key]: ['encrypt', 'decrypt'] } }, 'queue', { call: 'seal', open: true })).resolves.toBe(
      'ok',
    );
  });

  it('refuses every call of a client no grant can name, before it leaves the process', async () => {
    await expect(
      run({ table: 'write', queues: ['webhook-deliveries'], keys: { [CHANNEL_SECRETS_KEY]: ['encrypt', 'decrypt'] } }, 'event', {
        call: 'unknown-client',
      }),
    ).rejects.toMatchObject({
      name: 'AccessDeniedException',
      message: expect.stringContaining('is not authorized to perform: dynamodbstreams:ListStreams'),
    });
  });
});

describe('the local runtime enforces the AWS service limits the emulators let pass', () => {
  const TableName = () => config().TABLE_NAME;

  it('refuses a transaction of more than 100 items', async () => {
    const items = Array.from({ length: 101 }, (_, i) => ({ Put: { TableName: TableName(), Item: { pk: `LIMIT#${i}`, sk: 'X' } } }));
    await expect(dynamo().send(new TransactWriteCommand({ TransactItems: items }))).rejects.toMatchObject({ name: 'ValidationException' });
    await expect(dynamo().send(new TransactWriteCommand({ TransactItems: items.slice(0, 100) }))).resolves.toBeDefined();
  });

  it('refuses an item over 400 KB, and stores one just under it', async () => {
    await expect(run({ table: 'write' }, 'event', { call: 'put', pk: 'BIG#1', bytes: 400 * 1024 })).rejects.toMatchObject({
      name: 'ValidationException',
      message: 'Item size has exceeded the maximum allowed size',
    });
    await expect(run({ table: 'write' }, 'event', { call: 'put', pk: 'BIG#2', bytes: 400 * 1024 - 100 })).resolves.toBe('ok');
  });

  it('refuses an SQS delay over 900 s and a visibility timeout over 12 h', async () => {
    await expect(
      run({ table: 'read', queues: ['webhook-deliveries'] }, 'http', { call: 'send', queueUrl: queueUrl(), delaySeconds: 901 }),
    ).rejects.toMatchObject({
      name: 'InvalidParameterValue',
    });
    await expect(
      (await sqs()).client.send(
        new SendMessageBatchCommand({ QueueUrl: queueUrl(), Entries: [{ Id: '1', MessageBody: '{}', DelaySeconds: 1000 }] }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterValue' });
    await expect(
      (await sqs()).client.send(
        new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl(), ReceiptHandle: 'x', VisibilityTimeout: 12 * 3600 + 1 }),
      ),
    ).rejects.toMatchObject({ name: 'InvalidParameterValue', message: expect.stringContaining('VisibilityTimeout') });
  });

  it('never puts an entry over 256 KB on the bus: the rule target is not invoked', async () => {
    const calls: unknown[] = [];
    const rule: EventRule = { name: 'probe', pattern: { source: ['probe'] }, target: fixture({ table: 'write' }) };
    const small = busEvent('probe', 'Probe', { call: 'update', pk: 'PROBE#small' });
    const big = busEvent('probe', 'Probe', { call: 'update', pk: 'PROBE#big', padding: 'x'.repeat(256 * 1024) });
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => {
      calls.push(chunk);
      return true;
    }) as typeof process.stderr.write;
    try {
      await route([rule], big);
      await route([rule], small);
    } finally {
      process.stderr.write = write;
    }
    expect(calls.map(String).filter((l) => l.includes('256 KB'))).toHaveLength(1);
    const read = (pk: string) => dynamo().send(new GetCommand({ TableName: TableName(), Key: { pk, sk: 'X' } }));
    expect((await read('PROBE#small')).Item).toBeDefined();
    expect((await read('PROBE#big')).Item).toBeUndefined();
  });
});
