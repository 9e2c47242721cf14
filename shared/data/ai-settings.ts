import type { Tenant } from '../domain/auth/tenant';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import { DEFAULT_SETTINGS, type AiSettings } from '../domain/ai/settings';
import { aiSettings } from './registry/knowledge';
import { putItem, type Write } from './transact';

/** The tenant's settings (the defaults under what it saved) and their version, 0 while none are saved. */
export const readAiSettings = async (tenant: Tenant): Promise<{ settings: AiSettings; version: number }> => {
  const { Item } = await dynamo().send(
    new GetCommand({ TableName: config().TABLE_NAME, Key: aiSettings.key({ tenant }), ConsistentRead: true }),
  );
  const { settings, version } = aiSettings.parse(Item ?? {});
  return { settings: { ...DEFAULT_SETTINGS, ...settings }, version };
};

/** Saves `settings` over the version read (the first save over none). */
export const aiSettingsWrite = (tenant: Tenant, settings: AiSettings, readVersion: number): Write =>
  putItem(
    { ...aiSettings.key({ tenant }), type: 'AI_SETTINGS', settings, version: readVersion + 1 },
    readVersion === 0 ? { condition: 'attribute_not_exists(pk)' } : { condition: 'version = :v', values: { ':v': readVersion } },
  );
