import { ChangeMessageVisibilityCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../aws/sqs';
import { config } from '../config';
import type { Tenant } from '../domain/auth/tenant';

/** A step message names the execution and the step number it is for; the truth is in the table. */
export interface StepMessage {
  workspaceId: Tenant;
  executionId: string;
  seq: number;
}

/** SQS's DelaySeconds limit: a longer wait is left to the due-time sweep. */
export const MAX_DELAY_SECONDS = 900;
export const MAX_VISIBILITY_SECONDS = 11 * 3600;

const queueUrl = (): string => {
  const url = config().WORKFLOW_QUEUE_URL;
  if (!url) throw new Error('WORKFLOW_QUEUE_URL is not configured');
  return url;
};

/** Whether a wait this long is carried by a delayed message (else the sweep sends one when it is nearly due). */
export const fitsInDelay = (delayMs: number): boolean => delayMs <= MAX_DELAY_SECONDS * 1000;

/** Sends the step's message to appear after `delayMs`, rounded up to whole seconds (never early). */
export const enqueueStep = async (message: StepMessage, delayMs: number): Promise<void> => {
  await sqs().send(
    new SendMessageCommand({ QueueUrl: queueUrl(), MessageBody: JSON.stringify(message), DelaySeconds: Math.min(MAX_DELAY_SECONDS, Math.max(0, Math.ceil(delayMs / 1000))) }),
  );
};

/** Makes a received message reappear after `delayMs` (rounded up), for a message that arrived before its step was due. */
export const deferStep = async (receiptHandle: string, delayMs: number): Promise<void> => {
  await sqs().send(
    new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl(), ReceiptHandle: receiptHandle, VisibilityTimeout: Math.min(MAX_VISIBILITY_SECONDS, Math.max(0, Math.ceil(delayMs / 1000))) }),
  );
};
