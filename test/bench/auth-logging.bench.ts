import { createWriteStream } from 'node:fs';
import type { LocalStack } from '../../infra/local/stack';
import { RATE_LIMITS } from '../../shared/domain/auth/rate-limit';
import { useLogSink } from '../../shared/log';
import { useMetricSink } from '../../shared/observability/metrics';
import { createTenant, tokenFor } from '../support/tenants';
import { measureInterleaved, type Section } from './measure';

const REQUESTS = 600;
const WARMUP = 20;

/**
 * The auth pipeline (GET /api/v1/auth/workspaces) with and without logging, interleaved one request at a
 * time in one process. Logging on: the access line and the request's metrics serialised and written (to
 * /dev/null) as the local runtime writes them. Off: nothing written.
 */
export const run = async (stack: LocalStack): Promise<Section[]> => {
  const { workspaceId } = await createTenant(['admin:all']);
  const perToken = RATE_LIMITS.auth;
  const tokens = await Promise.all(
    Array.from(
      { length: Math.ceil((2 * (REQUESTS + WARMUP)) / perToken) + 1 },
      async () => (await tokenFor([workspaceId], ['inbox:read'])).token,
    ),
  );
  let used = 0;
  const get = async () => {
    const res = await fetch(`${stack.baseUrl}/api/v1/auth/workspaces`, {
      headers: { authorization: `Bearer ${tokens[Math.floor(used++ / perToken)]!}` },
    });
    if (res.status !== 200) throw new Error(`unexpected ${res.status}`);
    await res.arrayBuffer();
  };

  const devNull = createWriteStream('/dev/null');
  const line = (record: object) => void devNull.write(`${JSON.stringify(record)}\n`);
  const quiet = () => [useLogSink({ level: 'silent', write: () => undefined }), useMetricSink(() => undefined)];
  const logged = () => [useLogSink({ level: 'info', write: line }), useMetricSink(line)];
  const withSinks = (sinks: () => (() => void)[]) => async () => {
    const undo = sinks();
    try {
      await get();
    } finally {
      for (const u of undo) u();
    }
  };
  const l = await measureInterleaved({ off: withSinks(quiet), on: withSinks(logged) }, { requests: REQUESTS, warmup: WARMUP });
  devNull.end();
  return [
    {
      title: 'GET /api/v1/auth/workspaces: the pipeline with and without logging (access line + metrics)',
      columns: ['logging', 'p50 ms', 'p99 ms', 'req/s', 'p50 ÷ off'],
      rows: [
        ['off', l.off.p50Ms, l.off.p99Ms, l.off.rps, 1],
        ['on (info)', l.on.p50Ms, l.on.p99Ms, l.on.rps, l.on.p50Ms / l.off.p50Ms],
      ],
      notes: [
        `${REQUESTS} requests each after ${WARMUP} warm-up requests, interleaved one at a time in the same process. The aim is at most 1.05x.`,
      ],
    },
  ];
};
