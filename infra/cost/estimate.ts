import { ASSUMPTIONS as A, SECONDS_PER_MONTH } from './assumptions';
import type { Inventory } from './inventory';
import type { MeasuredWrites } from './measured';
import { PRICES, type PriceName } from './prices';

export interface Line {
  item: string;
  /** How many of the price's unit, with how they were counted. */
  quantity: number;
  basis: string;
  price: PriceName;
  usd: number;
}

const line = (item: string, quantity: number, price: PriceName, basis: string): Line => ({
  item,
  quantity,
  basis,
  price,
  usd: quantity * PRICES[price].usd,
});
const GB = 1024 ** 3;

/** What a stage costs a month with no traffic at all: the fixed resources and everything that polls or runs on a timer. */
export const idleLines = (inv: Inventory): Line[] => {
  const runs = inv.schedules.reduce((n, s) => n + s.runsPerMonth, 0);
  const gbSeconds = inv.schedules.reduce((n, s) => n + s.runsPerMonth * s.memoryGb * A.idleRunSeconds, 0);
  const traces = inv.schedules.reduce((n, s) => n + s.runsPerMonth * s.traceRate, 0);
  const polls = (inv.sqsEventSources * A.sqsIdlePollers * SECONDS_PER_MONTH) / A.sqsLongPollSeconds;
  return [
    line('CloudWatch alarms', inv.alarmMetrics, 'alarmMetric', `${inv.alarms} alarms on ${inv.alarmMetrics} metrics`),
    line('KMS keys', inv.keys, 'kmsKey', `${inv.keys} customer managed`),
    line('CloudWatch dashboard', inv.dashboards, 'dashboard', `${inv.dashboards} dashboard`),
    line('Scheduler invocations', runs, 'schedulerInvocation', `${inv.schedules.length} schedules, ${runs.toLocaleString('en-US')} runs`),
    line('Lambda invocations (schedules)', runs, 'lambdaRequest', `${runs.toLocaleString('en-US')} runs`),
    line('Lambda compute (schedules)', gbSeconds, 'lambdaGbSecond', `${A.idleRunSeconds} s per run at its memory`),
    line('Logs (schedules)', (runs * A.idleRunLogBytes) / GB, 'logsIngestGb', `${A.idleRunLogBytes} B per run`),
    line('X-Ray (schedules)', traces, 'xrayTrace', 'runs × the sampling rule that matches each'),
    line('DynamoDB reads (schedules)', runs * A.idleRunReadUnits, 'dynamoReadUnit', `${A.idleRunReadUnits} RRU per run`),
    line(
      'SQS idle long polls',
      polls,
      'sqsRequest',
      `${inv.sqsEventSources} queue consumers × ${A.sqsIdlePollers} polls of ${A.sqsLongPollSeconds} s`,
    ),
    line(
      'Stream reads by the outbox pipe',
      inv.pipes * A.streamPollsPerSecond * SECONDS_PER_MONTH,
      'streamReadRequest',
      `${A.streamPollsPerSecond} GetRecords a second on one shard`,
    ),
  ];
};

/** The optional edge (CloudFront's WAF), priced apart: a web ACL and its rules, whatever the traffic. */
export const edgeLines = (inv: Inventory): Line[] =>
  inv.wafAcls
    ? [
        line('WAF web ACL', inv.wafAcls, 'wafWebAcl', `${inv.wafAcls} web ACL`),
        line('WAF rules', inv.wafRules, 'wafRule', `${inv.wafRules} rules`),
      ]
    : [];

export interface Workload {
  apiCalls: number;
  deliveries: number;
  /** Customers' messages a channel delivers (`POST /inbox/messages/incoming`), on top of the API calls. */
  incomingMessages: number;
  /** Hours realtime sockets are connected, summed over sockets (10 screens open 8 hours a working day: about 1,760). */
  socketHours: number;
}

/** The route a channel's incoming message is recorded by. */
export const INCOMING_MESSAGE_ROUTE = 'POST /api/v1/inbox/messages/incoming';

const mean = (rows: { calls: number; unitsPerCall: number }[]) => {
  const calls = rows.reduce((n, r) => n + r.calls, 0);
  return calls ? rows.reduce((n, r) => n + r.calls * r.unitsPerCall, 0) / calls : 0;
};

/** Write units from the bench: a write call is the call-weighted mean of the measured routes; a delivery is the worker's units per message. */
const measuredUnits = (measured: MeasuredWrites) => {
  const routes = measured.rows.filter((r) => /^(POST|PATCH|DELETE) /.test(r.what));
  const row = (what: string) => measured.rows.find((r) => r.what === what);
  return {
    perWriteCall: mean(routes),
    perEventFanOut: row('event webhook-fanout')?.unitsPerCall ?? 0,
    perDelivery: row('queue webhook-deliveries')?.unitsPerCall ?? 0,
    perIncomingMessage: row(INCOMING_MESSAGE_ROUTE)?.unitsPerCall ?? 0,
  };
};

/** The traffic-driven cost of a workload on top of the idle cost. */
export const workloadLines = (w: Workload, measured: MeasuredWrites, inv: Inventory): Line[] => {
  const edge = inv.wafAcls > 0;
  const units = measuredUnits(measured);
  const writes = w.apiCalls * A.writeShare;
  const reads = w.apiCalls - writes;
  const invocations = w.apiCalls + writes * inv.targetsPerEvent + w.deliveries;
  const writeUnits =
    reads * A.writeUnitsPerReadCall + writes * units.perWriteCall + writes * units.perEventFanOut + w.deliveries * units.perDelivery;
  return [
    line('HTTP API requests', w.apiCalls, 'httpApiRequest', `${w.apiCalls.toLocaleString('en-US')} calls`),
    ...(edge ? [line('WAF requests', w.apiCalls, 'wafRequest', 'every API call passes the WAF')] : []),
    line(
      'Lambda invocations',
      invocations,
      'lambdaRequest',
      `API calls + ${inv.targetsPerEvent} rule targets per write (every domain event) + one worker run per delivery`,
    ),
    line(
      'Lambda compute',
      w.apiCalls * A.apiCallSeconds * 1 + w.deliveries * A.deliverySeconds * 0.5 + writes * inv.targetsPerEvent * A.apiCallSeconds * 0.5,
      'lambdaGbSecond',
      `API ${A.apiCallSeconds} s at 1 GB, delivery ${A.deliverySeconds} s and rule target ${A.apiCallSeconds} s at 0.5 GB`,
    ),
    line(
      'DynamoDB writes',
      writeUnits,
      'dynamoWriteUnit',
      `measured ${measured.measuredOn}: ${units.perWriteCall.toFixed(1)} WCU per write call, ${units.perEventFanOut.toFixed(1)} per event fanned out, ${units.perDelivery.toFixed(1)} per delivery; ${A.writeUnitsPerReadCall} per read call`,
    ),
    line(
      'DynamoDB writes, incoming messages',
      w.incomingMessages * (units.perIncomingMessage + units.perEventFanOut),
      'dynamoWriteUnit',
      `measured ${measured.measuredOn}: ${units.perIncomingMessage.toFixed(1)} WCU per \`${INCOMING_MESSAGE_ROUTE}\`, ${units.perEventFanOut.toFixed(1)} per event fanned out`,
    ),
    line(
      'DynamoDB reads',
      reads * A.readUnitsPerApiCall + w.deliveries * 1,
      'dynamoReadUnit',
      `${A.readUnitsPerApiCall} RRU per read call, 1 per delivery`,
    ),
    line('Bus events', writes, 'busEvent', 'one domain event per write'),
    line('Pipe events', writes, 'pipeEvent', 'one outbox item per write'),
    line('SQS', w.deliveries * A.sqsRequestsPerDelivery, 'sqsRequest', `${A.sqsRequestsPerDelivery} requests per delivery`),
    line(
      'Logs',
      (w.apiCalls * A.apiLogBytes + w.deliveries * A.deliveryLogBytes) / GB,
      'logsIngestGb',
      `${A.apiLogBytes} B per call, ${A.deliveryLogBytes} B per delivery`,
    ),
    line(
      'X-Ray',
      reads * 0.01 + (writes + w.deliveries) * A.defaultTraceRate,
      'xrayTrace',
      `reads at the 1 % rule, the rest at ${A.defaultTraceRate * 100} %`,
    ),
    line(
      'Data transfer out',
      (w.apiCalls * A.apiResponseBytes + w.deliveries * A.deliveryBodyBytes) / GB,
      'transferOutGb',
      'responses and webhook bodies',
    ),
    ...fileLines(w.apiCalls * A.filesPerApiCall),
    ...realtimeLines(w.socketHours, writes),
  ];
};

/**
 * The realtime API: nothing while no socket is open (no idle cost). A socket costs its connection minutes and
 * its messages; every event costs the push function's presence read (its invocation is among the rule
 * targets above), whether or not the tenant has a socket.
 */
const realtimeLines = (socketHours: number, events: number): Line[] => {
  const minutes = socketHours * 60;
  return [
    line('WebSocket connection minutes', minutes, 'webSocketMinute', `${socketHours.toLocaleString('en-US')} socket-hours`),
    line(
      'WebSocket messages',
      events * A.framesPerEvent + minutes * A.pingsPerSocketMinute * 2,
      'webSocketMessage',
      `${A.framesPerEvent} frame per event, a ping and its pong each socket-minute`,
    ),
    line('DynamoDB reads (realtime presence)', events, 'dynamoReadUnit', "1 RRU per event: the push reads the tenant's presence"),
  ];
};

/**
 * Files: the bytes go between the client and S3 (uploads) or CloudFront (downloads), so they cost storage and
 * requests, not Lambda. S3's object-created notifications to the default bus are free (AWS service events);
 * the verifier's run and the tag's removal once the file is ready are one invocation each per upload, and
 * removing the tag is a DELETE-tier request (free). A download is a CloudFront request, its origin's S3 GET
 * (S3 to CloudFront transfer is free) and CloudFront's transfer out; the signing key is a standard parameter
 * (no charge, read once per container).
 */
const fileLines = (uploads: number): Line[] => {
  const basis = `${uploads.toLocaleString('en-US')} uploads of ${A.fileBytes / 1024} KiB`;
  return [
    line('S3 storage (files)', (uploads * A.fileBytes * A.fileMonthsKept) / GB, 's3StorageGb', `${basis}, kept ${A.fileMonthsKept} months`),
    line('S3 uploads (presigned POST)', uploads, 's3PutRequest', basis),
    line(
      'S3 GETs (verification + downloads)',
      uploads * (1 + A.downloadsPerFile),
      's3GetRequest',
      `one ranged GET by the verifier and ${A.downloadsPerFile} downloads per file`,
    ),
    line('Lambda invocations (verifier, tag removal)', uploads * 2, 'lambdaRequest', 'one verification and one tag removal per upload'),
    line('CloudFront requests (downloads)', uploads * A.downloadsPerFile, 'cloudFrontRequest', `${A.downloadsPerFile} downloads per file`),
    line('CloudFront transfer out (downloads)', (uploads * A.downloadsPerFile * A.fileBytes) / GB, 'cloudFrontTransferOutGb', 'downloads'),
  ];
};

export const total = (lines: Line[]) => lines.reduce((n, l) => n + l.usd, 0);
