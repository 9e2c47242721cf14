import { config } from '../config';
import type { ChannelConfig, ChannelType } from '../domain/channels/account';
import { assertAllowedTarget } from '../outbound/https';

/**
 * Where an account sends must be a public address (loopback only behind the local setting), checked
 * literally and through DNS when the account is saved; the `api` POST is pinned again at every send.
 */
export const assertChannelTarget = async (type: ChannelType, channelConfig: ChannelConfig): Promise<void> => {
  const allowLoopback = config().WEBHOOK_ALLOW_PRIVATE_TARGETS;
  if (type === 'api') await assertAllowedTarget((channelConfig as { url: string }).url, allowLoopback, 'config.url');
  if (type === 'email') {
    const { host, port } = channelConfig as { host: string; port: number };
    await assertAllowedTarget(`smtp://${host.includes(':') ? `[${host}]` : host}:${port}`, allowLoopback, 'config.host');
  }
};
