const DAY_MS = 24 * 60 * 60 * 1000;

/** The closing time before which a closed conversation is past a retention of `days` at `now` (an ISO time). */
export const retentionCutoff = (now: Date, days: number): string => new Date(now.getTime() - days * DAY_MS).toISOString();

/**
 * What one run of the retention sweep did; `indexed`: closed conversations its backfill entered into the closed
 * index; `more` when it stopped at a bound with work left for the next run.
 */
export interface SweepCounts {
  workspaces: number;
  conversations: number;
  messages: number;
  files: number;
  indexed: number;
  more: boolean;
}
