import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { DEFAULT_SETTINGS, type AiSettings } from '../domain/ai/settings';
import { tenantPk } from './keys';
import { putItem, type Write } from './transact';
import { K } from './registry/registry';

/** One item per tenant: pk=<tenant> sk=AI_SETTINGS (version); absent means the defaults. */
const key = (tenant: Tenant) => ({ pk: tenantPk(tenant), sk: K.AI_SETTINGS });

/** The tenant's settings (the defaults under what it saved) and their version, 0 while none are saved. */
export const readAiSettings = async (tenant: Tenant): Promise<{ settings: AiSettings; version: number }> => {
  const { Item } = await dynamo().send(new GetCommand({ TableName: config().TABLE_NAME, Key: key(tenant), ConsistentRead: true }));
  const stored = (Item?.settings ?? {}) as Partial<AiSettings>;
  return { settings: { ...DEFAULT_SETTINGS, ...stored }, version: (Item?.version as number | undefined) ?? 0 };
};

/** Saves `settings` over the version read (the first save over none). */
export const aiSettingsWrite = (tenant: Tenant, settings: AiSettings, readVersion: number): Write =>
  putItem(
    { ...key(tenant), type: 'AI_SETTINGS', settings, version: readVersion + 1 },
    readVersion === 0 ? { condition: 'attribute_not_exists(pk)' } : { condition: 'version = :v', values: { ':v': readVersion } },
  );
