import type { components } from '../client/src/index';

/**
 * The API's resources as its OpenAPI document describes them, through the typed client's generated schema:
 * the dashboard knows the API as any of its clients does, never the server's own code.
 */
type Schema = components['schemas'];

export type Subscription = Schema['WebhookSubscription'];
export type EndpointHealth = Schema['WebhookEndpointHealth'];
export type Delivery = Schema['WebhookDeliverySummary'];
export type DeliveryDetail = Schema['WebhookDeliveryDetail'];
export type Workflow = Schema['Workflow'];
export type Execution = Schema['WorkflowExecution'];
export type ExecutionWithSteps = Schema['WorkflowExecutionWithSteps'];
export type Step = Schema['WorkflowStep'];
export type ParleyEvent = Schema['Event'];
