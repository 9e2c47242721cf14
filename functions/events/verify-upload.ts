import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { verifyUpload } from '../../shared/files/files';
import { direct } from '../../shared/data/unit';

/** S3's EventBridge notification of a new object (`Object Created`), as the rule on the default bus passes it on. */
type ObjectCreated = EventBridgeEvent<'Object Created', { bucket: { name: string }; object: { key: string; size?: number } }>;

/** EventBridge rule target: an object landed in the files bucket; its file becomes ready or rejected, once. */
export const handler = observed(async (event: ObjectCreated) => {
  await verifyUpload(direct, event.detail.object.key, new Date());
});
