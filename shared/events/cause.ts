import { AsyncLocalStorage } from 'node:async_hooks';

/** The workflow run whose action an event reports, and how deep the chain of workflow-caused events is. */
export interface Cause {
  workflowId: string;
  executionId: string;
  depth: number;
}

const current = new AsyncLocalStorage<Cause>();

/** Runs a workflow action so that every event it emits carries `causedBy` (loops stop at a depth limit). */
export const withCause = <T>(cause: Cause, action: () => Promise<T>): Promise<T> => current.run(cause, action);

export const currentCause = (): Cause | undefined => current.getStore();
