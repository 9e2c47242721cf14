import { sweepDueSteps } from '../../shared/workflows/sweep';
import { scheduled } from '../../shared/observability/invocation';
import { direct } from '../../shared/data/unit';

/** Every minute: sends the messages of steps waiting longer than SQS can delay, and of steps whose message was lost. */
export const handler = scheduled(async (): Promise<{ sent: number }> => ({ sent: await sweepDueSteps(direct, new Date()) }));
