import { createServer } from 'node:http';
import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { daemonAddress, inSubsegment, tracedClient } from '../../../shared/observability/tracing';

const ROOT = '1-5759e988-bd862e3fe1be46a994272793';
const PARENT = '53995c3f42cd8ad8';

/** A stand-in for the X-Ray daemon: a UDP socket that keeps each datagram's header and document. */
const daemon = createSocket('udp4');
const received: { header: unknown; doc: Record<string, any> }[] = [];
daemon.on('message', (msg) => {
  const [header, doc] = msg.toString().split('\n');
  received.push({ header: JSON.parse(header!), doc: JSON.parse(doc!) });
});
const settle = () => new Promise((r) => setTimeout(r, 50));

/** A DynamoDB endpoint that answers every GetItem with no item. */
const dynamodb = createServer((req, res) => {
  req.resume();
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'req-1' }).end('{}'));
});

beforeAll(async () => {
  await new Promise<void>((r) => daemon.bind(0, '127.0.0.1', r));
  await new Promise<void>((r) => dynamodb.listen(0, '127.0.0.1', r));
  process.env.AWS_XRAY_DAEMON_ADDRESS = `127.0.0.1:${daemon.address().port}`;
});
afterAll(() => {
  daemon.close();
  dynamodb.close();
  for (const name of ['AWS_XRAY_DAEMON_ADDRESS', 'AWS_LAMBDA_FUNCTION_NAME', '_X_AMZN_TRACE_ID']) delete process.env[name];
});
beforeEach(() => {
  received.length = 0;
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'parley-dev-http-inbox-get-conversation';
  process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
});

describe('tracing', () => {
  it("sends a sampled invocation's subsegments to the daemon, nested under Lambda's segment, with their annotations", async () => {
    await inSubsegment(
      '## GET /api/v1/x',
      () => inSubsegment('POST example.com', async () => 'sent'),
      () => ({ route: 'GET /api/v1/x' }),
    );
    await settle();
    expect(received.map((r) => r.header)).toEqual([
      { format: 'json', version: 1 },
      { format: 'json', version: 1 },
    ]);
    const inner = received.find((r) => r.doc.name === 'POST example.com')!.doc;
    const outer = received.find((r) => r.doc.name === '## GET /api/v1/x')!.doc;
    expect(outer).toMatchObject({ type: 'subsegment', trace_id: ROOT, parent_id: PARENT, annotations: { route: 'GET /api/v1/x' } });
    expect(inner).toMatchObject({ type: 'subsegment', trace_id: ROOT, parent_id: outer.id });
    expect(outer.end_time).toBeGreaterThanOrEqual(outer.start_time);
  });

  it('marks a subsegment whose work threw as a fault, and rethrows', async () => {
    await expect(inSubsegment('POST example.com', () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await settle();
    expect(received[0]!.doc).toMatchObject({ fault: true, cause: { exceptions: [{ message: 'refused', type: 'Error' }] } });
  });

  it('makes each AWS SDK call a subsegment naming the service, operation, table and status', async () => {
    const client = tracedClient(
      new DynamoDBClient({
        endpoint: `http://127.0.0.1:${(dynamodb.address() as AddressInfo).port}`,
        region: 'us-east-1',
        credentials: { accessKeyId: 'a', secretAccessKey: 'b' },
      }),
    );
    await client.send(new GetItemCommand({ TableName: 'parley', Key: { pk: { S: 'a' }, sk: { S: 'b' } } }));
    await settle();
    expect(received.map((r) => r.doc)).toEqual([
      expect.objectContaining({
        name: 'DynamoDB',
        namespace: 'aws',
        parent_id: PARENT,
        aws: expect.objectContaining({ operation: 'GetItem', table_name: 'parley', request_id: 'req-1' }),
        http: { response: { status: 200 } },
      }),
    ]);
  });

  it('sends nothing when the invocation is not sampled, or outside Lambda', async () => {
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=0`;
    await inSubsegment('POST example.com', async () => undefined);
    delete process.env.AWS_LAMBDA_FUNCTION_NAME;
    process.env._X_AMZN_TRACE_ID = `Root=${ROOT};Parent=${PARENT};Sampled=1`;
    expect(await inSubsegment('POST example.com', async () => 'done')).toBe('done');
    await settle();
    expect(received).toEqual([]);
  });

  it("reads the daemon's address in both of Lambda's forms", () => {
    expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
    expect(daemonAddress('tcp:127.0.0.1:2000 udp:127.0.0.2:2001')).toEqual({ host: '127.0.0.2', port: 2001 });
  });
});
