import { attemptWrites, type RecordedAttempt } from '../analytics/record';
import { direct } from '../data/unit';
import { log } from '../log';

/**
 * The attempts a worker recorded in the batch it is handling, added to their days' analytics when the batch
 * is done: one ADD per workspace day, not one per attempt. An attempt is tallied only after the write that
 * recorded it, so a duplicate message (whose record fails its condition) never counts twice; a crash before
 * the batch ends loses that batch's tallies, never an attempt's record.
 */
const recorded: RecordedAttempt[] = [];

export const tallyAttempt = (attempt: RecordedAttempt): void => {
  recorded.push(attempt);
};

/** Writes the tallies gathered so far; a day whose write fails keeps its attempts for the next batch. */
export const writeAttemptTallies = async (): Promise<void> => {
  await Promise.all(
    attemptWrites(recorded.splice(0)).map(async ({ write, attempts }) => {
      try {
        await direct.writeAlone(write);
      } catch (error) {
        recorded.push(...attempts);
        log.warn('webhook attempt tallies kept for the next batch', { error, attempts: attempts.length });
      }
    }),
  );
};
