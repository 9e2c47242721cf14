import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { secretsConfig } from '../../../shared/config';

const MISSING =
  /CHANNEL_SECRETS_KEY_ID is not set: this function seals or opens channel secrets, but its wiring access grants it no channel-secrets key/;

let saved: string | undefined;
beforeEach(() => {
  saved = process.env.CHANNEL_SECRETS_KEY_ID;
  delete process.env.CHANNEL_SECRETS_KEY_ID;
  vi.resetModules();
});
afterEach(() => {
  delete process.env.AWS_LAMBDA_FUNCTION_NAME;
  if (saved !== undefined) process.env.CHANNEL_SECRETS_KEY_ID = saved;
});

/** As Lambda starts a container: its own variable set, config parsed afresh. */
const deployed = () => {
  process.env.AWS_LAMBDA_FUNCTION_NAME = 'parley-dev-function';
};

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

it.each(Object.keys(SEALERS))(
  '%s fails its cold start (the module load) on Lambda without the key setting, and never falls back to a key file',
  async (name) => {
    deployed();
    await expect(SEALERS[name]!()).rejects.toThrow(MISSING);
  },
);

it("loads off Lambda without the key setting, for the tools that read the handlers' route options", async () => {
  await expect(SEALERS['create-channel']!()).resolves.toHaveProperty('handler');
});

it('loads a function that never touches secrets on Lambda without the key setting', async () => {
  deployed();
  await expect(import('../../../functions/http/channels/list-channels')).resolves.toHaveProperty('handler');
});
