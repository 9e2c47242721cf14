import { createServer } from 'node:http';
import type { LocalStack } from '../../infra/local/stack';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/aws/dynamo';
import { config } from '../../shared/config';
import { admitRequest } from '../../shared/data/tokens';
import { getWorkspaces } from '../../shared/data/workspaces';
import { hashToken } from '../../shared/domain/auth/token';
import { RATE_LIMITS, windowOf } from '../../shared/domain/auth/rate-limit';
import { createTenant, tokenFor } from '../support/tenants';
import { measure, type Latency, type Section } from './measure';

const REQUESTS = 600;

/** The storage work of GET /auth/workspaces with nothing around it: token by hash, then its workspaces. */
const bareReads = async (token: string) => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: { pk: `TOKEN#${hashToken(token)}`, sk: 'TOKEN' }, ConsistentRead: true }),
  );
  return getWorkspaces(Item!.workspaceIds as string[]);
};

/**
 * The DynamoDB calls the pipeline itself makes for the same request: the conditional update that finds the
 * token and counts it (a valid token reads no failure count), then the handler's workspace read.
 */
const pipelineCalls = async (token: string) => {
  const window = windowOf(new Date());
  const admission = await admitRequest(hashToken(token), { category: 'auth', window, limit: RATE_LIMITS.auth });
  if (!admission.found || !admission.admitted) throw new Error('bench token was not admitted');
  return getWorkspaces(admission.token.workspaceIds);
};

const bareServer = async (work: (token: string) => Promise<unknown>) => {
  const server = createServer(async (req, res) => {
    const token = (req.headers.authorization ?? '').slice('Bearer '.length);
    const workspaces = await work(token);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: true, data: { workspaces } }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, close: () => server.close() };
};

/**
 * The auth category admits 20 requests per token per window, so the bench rotates over enough tokens
 * that none is ever limited: every timed request does the full pipeline work and succeeds.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId } = await createTenant(['admin:all']);
  const perToken = RATE_LIMITS.auth;
  const rounds = 4 * 2 * (REQUESTS + 20);
  const tokens = await Promise.all(
    Array.from({ length: Math.ceil(rounds / perToken) + 1 }, async () => (await tokenFor([workspaceId], ['inbox:read'])).token),
  );
  let used = 0;
  const nextToken = () => tokens[Math.floor(used++ / perToken)]!;

  const bare = await bareServer(bareReads);
  const samePipelineCalls = await bareServer(pipelineCalls);
  const get = async (base: string) => {
    const res = await fetch(`${base}/api/v1/auth/workspaces`, { headers: { authorization: `Bearer ${nextToken()}` } });
    if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
    await res.arrayBuffer();
  };

  const rows: (string | number)[][] = [];
  for (const concurrency of [1, 16]) {
    const opts = { requests: REQUESTS, concurrency };
    const storage = await measure(() => bareReads(nextToken()), opts);
    const bareHttp = await measure(() => get(bare.url), opts);
    const sameCalls = await measure(() => get(samePipelineCalls.url), opts);
    const pipeline = await measure(() => get(stack.baseUrl), opts);
    const row = (name: string, l: Latency) => [
      name,
      concurrency,
      l.p50Ms,
      l.p99Ms,
      l.rps,
      l.p50Ms / bareHttp.p50Ms,
      l.p50Ms / sameCalls.p50Ms,
    ];
    rows.push(
      row('DynamoDB reads only (in-process)', storage),
      row('token + workspace reads behind bare HTTP', bareHttp),
      row("the pipeline's own DynamoDB calls behind bare HTTP", sameCalls),
      row('full pipeline (gateway + middy + zod)', pipeline),
    );
  }
  bare.close();
  samePipelineCalls.close();
  return [
    {
      title: 'GET /api/v1/auth/workspaces: request pipeline vs bare storage cost',
      columns: ['path', 'concurrency', 'p50 ms', 'p99 ms', 'req/s', 'p50 ÷ bare reads', 'p50 ÷ same calls'],
      rows,
      notes: [
        `${REQUESTS} timed requests per row after 20 warm-up requests, against DynamoDB Local on this machine.`,
        'The pipeline looks the token up with the conditional update that also counts the request (one round trip) and reads the failed-auth counter of the source IP in parallel.',
        '"p50 ÷ same calls" is the pipeline against a bare HTTP server making exactly those DynamoDB calls: what remains is the',
        "pipeline's own overhead (local gateway translation, middy, zod, the response wrapper). The aim is at most 1.2x.",
      ],
    },
  ];
};
