import type { FunctionKind, FunctionSpec } from './types';

/** Memory and timeout per kind of function; a wiring spec may override either. */
const KIND_DEFAULTS: Record<FunctionKind, { memoryMb: number; timeoutSeconds: number }> = {
  // Latency-bound: more memory buys more CPU for a faster cold start; API Gateway gives up at 30 s anyway.
  http: { memoryMb: 1024, timeoutSeconds: 10 },
  // The webhook worker waits up to 10 s per receiver; the queue's visibility timeout must exceed this.
  queue: { memoryMb: 512, timeoutSeconds: 30 },
  event: { memoryMb: 512, timeoutSeconds: 60 },
  schedule: { memoryMb: 512, timeoutSeconds: 120 },
};

/** The memory and timeout a function deploys with, which the local runtime gives it too. */
export const sizing = (spec: Pick<FunctionSpec, 'memoryMb' | 'timeoutSeconds'>, kind: FunctionKind) => ({
  memoryMb: spec.memoryMb ?? KIND_DEFAULTS[kind].memoryMb,
  timeoutSeconds: spec.timeoutSeconds ?? KIND_DEFAULTS[kind].timeoutSeconds,
});
