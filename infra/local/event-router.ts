import { randomUUID } from 'node:crypto';
import type { EventPattern, EventRule, PatternValue } from '../../functions/wiring/types';
import { eventEntryBytes, LIMITS } from './aws-limits';
import { log } from '../../shared/log';
import { invoke } from './lambda';

export interface BusEvent {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
}

const matchesValue = (allowed: readonly PatternValue[], actual: unknown): boolean =>
  allowed.some((a) =>
    typeof a === 'string'
      ? a === actual
      : typeof actual === 'string' && ('prefix' in a ? actual.startsWith(a.prefix) : !actual.startsWith(a['anything-but'].prefix)),
  );

const matchesDetail = (pattern: Record<string, unknown>, actual: unknown): boolean =>
  Object.entries(pattern).every(([key, expected]) => {
    const value = actual !== null && typeof actual === 'object' ? (actual as Record<string, unknown>)[key] : undefined;
    return Array.isArray(expected)
      ? matchesValue(expected as PatternValue[], value)
      : matchesDetail(expected as Record<string, unknown>, value);
  });

/** The subset of EventBridge pattern semantics the wiring uses: lists of exact values or prefixes. */
const matches = (pattern: EventPattern, event: BusEvent): boolean =>
  matchesValue(pattern.source, event.source) &&
  (!pattern['detail-type'] || matchesValue(pattern['detail-type'], event['detail-type'])) &&
  (!pattern.detail || matchesDetail(pattern.detail, event.detail));

export const busEvent = (source: string, detailType: string, detail: unknown): BusEvent => ({
  version: '0',
  id: randomUUID(),
  'detail-type': detailType,
  source,
  account: '000000000000',
  time: new Date().toISOString(),
  region: 'us-east-1',
  resources: [],
  detail,
});

const RETRY_DELAYS_MS = [100, 500, 2000];

const deadLetter = (fields: Record<string, unknown>) => process.stderr.write(`${JSON.stringify({ level: 'error', ...fields })}\n`);

/**
 * Delivers an event to every matching rule's target, retrying a failing target as EventBridge would
 * (here: three times) and then logging it as dead-lettered. Resolves once every target is done.
 * An entry over EventBridge's 256 KB never reaches the bus: PutEvents refuses it, so the pipe dead-letters it.
 */
export const route = async (rules: readonly EventRule[], event: BusEvent): Promise<void> => {
  const bytes = eventEntryBytes(event);
  if (bytes > LIMITS.eventBridgeEntryBytes) {
    deadLetter({ msg: 'bus entry refused: over the 256 KB EventBridge limit', eventId: event.id, bytes });
    return;
  }
  await Promise.all(
    rules
      .filter((rule) => matches(rule.pattern, event))
      .map(async (rule) => {
        for (let attempt = 0; ; attempt++) {
          const started = performance.now();
          try {
            await invoke(rule.target, { kind: 'event' }, event);
            log.debug('rule target done', { rule: rule.name, eventId: event.id, attempt, ms: Math.round(performance.now() - started) });
            return;
          } catch (error) {
            const delay = RETRY_DELAYS_MS[attempt];
            if (delay === undefined) {
              deadLetter({ msg: 'rule target dead-lettered', rule: rule.name, eventId: event.id, error: String(error) });
              return;
            }
            log.warn('rule target failed: retried', { rule: rule.name, eventId: event.id, attempt, error: String(error) });
            await new Promise((r) => setTimeout(r, delay));
          }
        }
      }),
  );
};
