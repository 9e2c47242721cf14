import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { secretsConfig } from '../../../shared/config';

const MISSING = /CHANNEL_SECRETS_KEY_ID is not set: this function seals or opens channel secrets, but its wiring access grants it no channel-secrets key/;

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.CHANNEL_SECRETS_KEY_ID;
  delete process.env.CHANNEL_SECRETS_KEY_ID;
  vi.resetModules();
});
afterEach(() => {
  if (saved !== undefined) process.env.CHANNEL_SECRETS_KEY_ID = saved;
});

it('reads the key setting of a deployed function, and refuses a deployment without one (or an empty one) with a clear message', () => {
  expect(secretsConfig({ STAGE: 'prod', CHANNEL_SECRETS_KEY_ID: 'arn:aws:kms:eu-west-1:111111111111:key/abc' })).toEqual({
    CHANNEL_SECRETS_KEY_ID: 'arn:aws:kms:eu-west-1:111111111111:key/abc',
  });
  expect(() => secretsConfig({ STAGE: 'prod' })).toThrow(MISSING);
  expect(() => secretsConfig({ STAGE: 'prod', CHANNEL_SECRETS_KEY_ID: '' })).toThrow(MISSING);
});

/** The functions granted the channel-secrets key, each loaded fresh as a cold start does. */
const SEALERS: Record<string, () => Promise<unknown>> = {
  'create-channel': () => import('../../../functions/http/channels/create-channel'),
  'update-channel': () => import('../../../functions/http/channels/update-channel'),
  'receive-inbound': () => import('../../../functions/http/channels/receive-inbound'),
  'send-channel-message': () => import('../../../functions/queues/send-channel-message'),
  'send-broadcast': () => import('../../../functions/queues/send-broadcast'),
};

it.each(Object.keys(SEALERS))('%s fails its cold start (the module load) without the key setting, and never falls back to a key file', async (name) => {
  await expect(SEALERS[name]!()).rejects.toThrow(MISSING);
});

it('loads a function that never touches secrets without the key setting', async () => {
  await expect(import('../../../functions/http/channels/list-channels')).resolves.toHaveProperty('handler');
});
