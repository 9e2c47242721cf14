import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';

export const bus = clientPerLane((requestHandler) => withPlugins(new EventBridgeClient({ region: config().AWS_REGION, requestHandler })));
