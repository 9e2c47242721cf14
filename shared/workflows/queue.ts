import * as z from 'zod';
import type { Unit } from '../data/unit';
import { MAX_DELAY_SECONDS, messageTenant, queueMessage, sendMessages, type Queue } from '../queues';

/** A step message names the execution and the step number it is for; the truth is in the table. */
const stepMessage = queueMessage(z.object({ ...messageTenant, executionId: z.string(), seq: z.int().nonnegative() }));
export type StepMessage = z.infer<typeof stepMessage>;

export const workflowQueue: Queue<StepMessage> = { env: 'WORKFLOW_QUEUE_URL', name: 'workflow step', message: stepMessage };

/** Whether a wait this long is carried by a delayed message (else the sweep sends one when it is nearly due). */
export const fitsInDelay = (delayMs: number): boolean => delayMs <= MAX_DELAY_SECONDS * 1000;

/** Sends the step's message to appear after `delayMs` (rounded up: never early). */
export const enqueueStep = (unit: Unit, message: StepMessage, delayMs: number): Promise<void> =>
  sendMessages(unit, workflowQueue, [message], delayMs);
