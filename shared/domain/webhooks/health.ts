import type { DeliveryStatus } from './delivery';
import { DEACTIVATE_AFTER_FAILURES, type Subscription } from './subscription';

/** Health looks at this many of the subscription's latest deliveries. */
export const HEALTH_WINDOW = 100;

/**
 * An endpoint's health: how its latest deliveries ended (the success rate counts finished ones only),
 * its consecutive failures against the deactivation threshold, and when and why it was deactivated.
 */
export const endpointHealth = (sub: Subscription, recent: readonly DeliveryStatus[]) => {
  const count = (...statuses: DeliveryStatus[]) => recent.filter((s) => statuses.includes(s)).length;
  const [succeeded, failed] = [count('success'), count('failed')];
  return {
    subscriptionId: sub._id,
    active: sub.active,
    consecutiveFailures: sub.consecutiveFailures,
    deactivateAfter: DEACTIVATE_AFTER_FAILURES,
    deactivatedAt: sub.active ? null : (sub.deactivatedAt ?? null),
    deactivationReason: sub.active ? null : (sub.deactivationReason ?? null),
    recent: {
      deliveries: recent.length,
      succeeded,
      failed,
      inProgress: count('pending', 'retrying'),
      successRate: succeeded + failed > 0 ? Math.round((succeeded / (succeeded + failed)) * 1000) / 1000 : null,
    },
  };
};
