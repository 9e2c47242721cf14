import { consumer } from '../../shared/queues';
import { runStep } from '../../shared/workflows/runner';
import { workflowQueue } from '../../shared/workflows/queue';

/** SQS consumer: each message runs one workflow step; one that came early comes back when it is due (partial batch failures). */
export const handler = consumer(workflowQueue, runStep, (m) => ({ executionId: m.executionId, step: m.seq }));
