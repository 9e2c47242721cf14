import { route } from '../../../shared/http/route';
import { changeChannelStatus } from '../../../shared/data/channels';
import { ChannelParams } from './schemas';

export const handler = route({ scope: 'channels:write', params: ChannelParams }, async ({ params, tenant, now }) => ({
  channel: await changeChannelStatus(tenant, params.id, 'connect', now),
}));
