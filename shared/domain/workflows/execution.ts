import type { Category, StepError } from './failure';
import type { ExecutionState } from './interpreter';

export const EXECUTION_STATUSES = ['queued', 'running', 'waiting', 'completed', 'completed_with_errors', 'failed', 'cancelled'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export const isFinished = (s: ExecutionStatus): boolean => ['completed', 'completed_with_errors', 'failed', 'cancelled'].includes(s);

/** How deep a chain of workflow-caused events may go: an event at this depth triggers nothing more (docs/guide/workflows.md). */
export const MAX_CAUSAL_DEPTH = 3;

export interface ExecutionTrigger {
  type: 'event' | 'manual' | 'schedule';
  eventId?: string;
  payload?: unknown;
}

/** One step attempt, as the history shows it. */
export interface Step {
  nodeId: string;
  nodeType: string;
  attempt: number;
  status: 'succeeded' | 'failed' | 'skipped';
  startedAt: string;
  endedAt: string;
  delayBeforeMs: number;
  output?: unknown;
  error?: { message: string; category: Category };
  handledBy?: string;
}

export interface Execution {
  _id: string;
  workflowId: string;
  workflowVersion: number;
  status: ExecutionStatus;
  trigger: ExecutionTrigger;
  /** 1 for a run started by people or schedules; one more than the causing run's for an event a workflow caused. */
  depth: number;
  startedAt: string;
  endedAt?: string;
  error?: { message: string; category: Category; nodeId: string; nodeType: string };
}

/** An execution as stored: where it is, and the state to resume a failed one from its failed step. */
export interface ExecutionRecord extends Execution {
  state: ExecutionState;
  /** The number of the next step; a queue message for another number is stale. */
  seq: number;
  /** When the next step is due. */
  dueAt?: string;
  resumeState?: ExecutionState;
}

export const publicExecution = ({ state: _s, seq: _q, dueAt: _d, resumeState: _r, ...execution }: ExecutionRecord): Execution => execution;

export const errorOf = (e: StepError): NonNullable<Execution['error']> => ({
  message: e.message,
  category: e.category,
  nodeId: e.nodeId,
  nodeType: e.nodeType,
});
