import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { applySettings, DEFAULT_SETTINGS, type AiSettings, type UpdateSettings } from '../domain/ai/settings';
import { tenantPk } from './keys';
import { lostRace, retryOnConflict } from './retry';
import { putItem, transact } from './transact';
import { K } from './registry/registry';

/** One item per tenant: pk=<tenant> sk=AI_SETTINGS (version); absent means the defaults. */
const key = (tenant: Tenant) => ({ pk: tenantPk(tenant), sk: K.AI_SETTINGS });

const read = async (tenant: Tenant) => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant), ConsistentRead: true }));
  const stored = (Item?.settings ?? {}) as Partial<AiSettings>;
  return { settings: { ...DEFAULT_SETTINGS, ...stored }, version: (Item?.version as number | undefined) ?? 0 };
};

export const getAiSettings = async (tenant: Tenant): Promise<AiSettings> => (await read(tenant)).settings;

export const updateAiSettings = (tenant: Tenant, input: UpdateSettings, now: Date): Promise<AiSettings> =>
  retryOnConflict(async () => {
    const current = await read(tenant);
    const { settings, changed } = applySettings(current.settings, input, now);
    if (!changed) return current.settings;
    await transact(
      [
        putItem(
          { ...key(tenant), type: 'AI_SETTINGS', settings, version: current.version + 1 },
          current.version === 0
            ? { condition: 'attribute_not_exists(pk)' }
            : { condition: 'version = :v', values: { ':v': current.version } },
        ),
      ],
      lostRace,
    );
    return settings;
  });
