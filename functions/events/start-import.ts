import type { EventBridgeEvent } from 'aws-lambda';
import { observed } from '../../shared/observability/invocation';
import { startImport } from '../../shared/imports/imports';
import { direct } from '../../shared/data/unit';

/** S3's EventBridge notification of a new object (`Object Created`) under `bulk/imports/`. */
type ObjectCreated = EventBridgeEvent<'Object Created', { bucket: { name: string }; object: { key: string } }>;

/** EventBridge rule target: an import's CSV landed; the import is queued for the bulk worker. */
export const handler = observed(async (event: ObjectCreated) => {
  await startImport(direct, event.detail.object.key);
});
