import { registerClientLanes } from '../../shared/aws/plugins';
import { currentKind } from './aws-guard';

/**
 * The local runtime's connection pools to the emulators. On AWS an API function and a fan-out worker never
 * share a pool (each container has its own clients); in this one process they would, and a burst of
 * background work (300 events fanning out: hundreds of concurrent writes) queued API requests' calls behind
 * it, seconds at a time. So calls made by API functions get a pool of their own, and background work
 * (event, queue and schedule functions, and code outside any function) another, each with keep-alive.
 */
export const POOLS = {
  /** API functions: the gateway's concurrent requests, a few calls each. */
  requests: 64,
  /** Event, queue and schedule functions: bounded so a burst cannot crowd the emulators out from under the API. */
  background: 16,
} as const;

type Lane = keyof typeof POOLS;

/** One pool of the SDK's default size for every call: the runtime before the split, kept to measure it against. */
const SHARED = { lane: 'shared', maxSockets: 50 } as const;
let shared = false;

/** Benchmarks only: route every call through one shared pool again (`true`) or back to the split pools. */
export const sharePools = (on: boolean): void => {
  shared = on;
};

const laneOf = (): Lane => (currentKind() === 'http' ? 'requests' : 'background');

let installed = false;

/** Registers the lanes before any function creates its clients (idempotent). */
export const installPools = (): void => {
  if (installed) return;
  installed = true;
  registerClientLanes({
    current: () => (shared ? SHARED.lane : laneOf()),
    maxSockets: (lane) => (lane === SHARED.lane ? SHARED.maxSockets : POOLS[lane as Lane]),
  });
};
