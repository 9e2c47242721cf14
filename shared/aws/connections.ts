import { ApiGatewayManagementApiClient } from '@aws-sdk/client-apigatewaymanagementapi';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';

/** The realtime API's management API: PostToConnection and DeleteConnection on its sockets. */
export const connections = clientPerLane((requestHandler) => {
  const { AWS_REGION, REALTIME_MANAGEMENT_ENDPOINT } = config();
  return withPlugins(new ApiGatewayManagementApiClient({ region: AWS_REGION, endpoint: REALTIME_MANAGEMENT_ENDPOINT, requestHandler }));
});
