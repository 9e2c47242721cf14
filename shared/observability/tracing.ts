import type { Tracer } from '@aws-lambda-powertools/tracer';
import { deployed } from '../config';
import { SERVICE } from './metrics';

/**
 * X-Ray through Powertools. Active only inside Lambda with tracing on (elsewhere every call here does
 * nothing); which requests are sampled is the stage's sampling rules' business, not this code's.
 *
 * Loaded only inside Lambda: the X-Ray SDK enables async hooks that track every promise as soon as it is
 * imported, which cost the local runtime, where nothing is traced, about a tenth of its CPU.
 */
const tracer: Tracer | undefined = deployed()
  ? new (await import('@aws-lambda-powertools/tracer')).Tracer({ serviceName: SERVICE })
  : undefined;

const tracing = (): Tracer | undefined => (tracer?.isTracingEnabled() ? tracer : undefined);

/** An AWS SDK client whose every call is a subsegment (DynamoDB, SQS, KMS). */
export const tracedClient = <C>(client: C): C => tracing()?.captureAWSv3Client(client) ?? client;

/**
 * Runs `fn` in a subsegment named `name` (an outbound HTTP call, or a handler's own work: Lambda's own
 * segment cannot carry annotations); `annotations` are read when it ends, so they may name what `fn` learnt.
 */
export const inSubsegment = async <T>(
  name: string,
  fn: () => Promise<T>,
  annotations: () => Record<string, string | undefined> = () => ({}),
): Promise<T> => {
  const active = tracing();
  if (!active) return fn();
  const parent = active.getSegment();
  const sub = parent?.addNewSubsegment(name);
  if (!parent || !sub) return fn();
  active.setSegment(sub);
  try {
    return await fn();
  } catch (error) {
    sub.addError(error as Error);
    throw error;
  } finally {
    for (const [key, value] of Object.entries(annotations())) if (value !== undefined) sub.addAnnotation(key, value);
    sub.close();
    active.setSegment(parent);
  }
};
