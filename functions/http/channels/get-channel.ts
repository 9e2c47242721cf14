import { route } from '../../../shared/http/route';
import { requireChannel } from '../../../shared/data/channels';
import { ChannelParams } from './schemas';

export const handler = route({ scope: 'channels:read', params: ChannelParams }, async ({ params, tenant }) => ({
  channel: await requireChannel(tenant, params.id),
}));
