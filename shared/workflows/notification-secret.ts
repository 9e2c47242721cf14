import type { Tenant } from '../domain/auth/tenant';
import { generateSecret } from '../domain/webhooks/subscription';
import { notificationSecretCreation, readNotificationSecret } from '../data/workflow-secrets';
import type { Unit } from '../data/unit';

class Taken extends Error {}

/** The workspace's notification secret, made on first use; of two first uses at once, the one stored first is everyone's. */
export const notificationSecret = async (unit: Unit, tenant: Tenant): Promise<string> => {
  const existing = await readNotificationSecret(tenant);
  if (existing) return existing;
  await unit.commit([notificationSecretCreation(tenant, generateSecret(), () => new Taken())]).catch((error: unknown) => {
    // Taken, or cancelled by the other first use's transaction on the same item: either way, read the one stored.
    if (!(error instanceof Taken) && (error as Error).name !== 'TransactionCanceledException') throw error;
  });
  return (await readNotificationSecret(tenant))!;
};
