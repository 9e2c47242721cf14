/**
 * What the cost model cannot read from a template or the bench, stated once. Each is a usage estimate, not a
 * price; the generated cost page prints them next to the figures.
 */
export const ASSUMPTIONS = {
  /** A schedule run that finds nothing: one query, then Lambda's start and report log lines. */
  idleRunSeconds: 0.1,
  idleRunLogBytes: 800,
  idleRunReadUnits: 0.5,
  /** An SQS event source keeps 5 long polls of 20 s open on its queue whether or not messages come. */
  sqsIdlePollers: 5,
  sqsLongPollSeconds: 20,
  /** The outbox pipe polls each stream shard 4 times a second; an idle table has one shard. */
  streamPollsPerSecond: 4,
  /** Lambda's default X-Ray sampling where no sampling rule matches: 1 a second, then 5 %. */
  defaultTraceRate: 0.05,
  /** Of the API calls in a workload, the share that write (the rest read). */
  writeShare: 0.3,
  apiCallSeconds: 0.1,
  readUnitsPerApiCall: 2,
  /** A read call still counts the request on its token item (one write unit). */
  writeUnitsPerReadCall: 1,
  apiLogBytes: 1500,
  apiResponseBytes: 2000,
  deliverySeconds: 0.3,
  /** Per delivery: send, receive, delete. */
  sqsRequestsPerDelivery: 3,
  deliveryLogBytes: 1000,
  deliveryBodyBytes: 2000,
  /** Files uploaded per API call of a workload (one in a hundred), their mean size, and how often each is downloaded. */
  filesPerApiCall: 0.01,
  fileBytes: 200 * 1024,
  downloadsPerFile: 2,
  /** Realtime: the sockets that receive each event (one agent's screen), and the heartbeat (`@parley/client` pings once a minute; each ping is answered). */
  framesPerEvent: 1,
  pingsPerSocketMinute: 1,
  /** A file stays until its conversation is deleted: the storage billed is this many months of uploads. */
  fileMonthsKept: 12,
} as const;

export const SECONDS_PER_MONTH = 30 * 24 * 3600;
