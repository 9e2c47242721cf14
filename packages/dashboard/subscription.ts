import { h, status } from './dom';
import { unwrap } from './session';
import type { ParleyClient } from '../client/src/client';
import type { Subscription } from './api';

/**
 * A delivery's quick attempts: the first and its retries after 1, 2, 4 and 8 s (the contract's schedule; the
 * browser test holds the words to the server's). Only then does a failure count in `consecutiveFailures`.
 */
const QUICK_ATTEMPTS = 5;

export const HOOKS = '/api/v1/integrations/webhooks';

const REASONS: Record<NonNullable<Subscription['deactivationReason']>, string> = {
  manual: 'disabled by hand',
  gone_410: 'the endpoint answered 410 Gone',
  consecutive_failures: 'too many failed deliveries in a row',
};

/** Why an endpoint is off, in words. */
export const whyOff = (s: Subscription): string => (s.deactivationReason ? REASONS[s.deactivationReason] : 'inactive');

/**
 * Its state at a glance: green only when it is on, no delivery is failing in a row, and none of its latest
 * finished deliveries failed (`recentFailed`, when known). A delivery counts as failing in a row once its
 * quick attempts are spent, while it is still retried later: the words say so, beside "none finished yet".
 */
export const health = (s: Subscription, recentFailed = 0): HTMLSpanElement => {
  if (!s.active)
    return s.deactivationReason === 'manual' ? status('disabled', 'disabled') : status('deactivated', `deactivated: ${whyOff(s)}`);
  const n = s.consecutiveFailures;
  if (n > 0)
    return status('failing', `failing: ${n === 1 ? '1 delivery' : `${n} deliveries in a row`} failed all ${QUICK_ATTEMPTS} quick attempts`);
  if (recentFailed > 0) return status('recent-failures', `active: ${recentFailed} of its latest deliveries failed`);
  return status('healthy', 'healthy');
};

/** The event types a subscription may name, and the wildcards, for a field's suggestions. */
export const eventChoices = async (api: ParleyClient): Promise<string[]> => {
  const { eventTypes, wildcards } = await unwrap<{ eventTypes: { type: string; subscribable: boolean }[]; wildcards: string[] }>(
    api.GET(`${HOOKS}/event-types`),
  );
  return [...wildcards, ...eventTypes.filter((t) => t.subscribable).map((t) => t.type)];
};

/** `events` as one comma-separated field, suggesting the catalog (typed names stay free: the API checks them). */
export const eventsField = (choices: string[], value: string[] = []) => {
  const list = h('datalist', { id: 'event-choices' }, ...choices.map((c) => h('option', { value: c })));
  const input = h('input', {
    type: 'text',
    name: 'events',
    required: true,
    value: value.join(', '),
    placeholder: 'e.g. inbox.*, customer.contact.created',
  });
  input.setAttribute('list', 'event-choices');
  const read = () =>
    input.value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
  return { field: h('label', {}, 'Events (comma-separated; wildcards such as inbox.* allowed) ', input, list), read };
};
