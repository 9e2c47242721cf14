import { finishStaleDeletions } from '../data/tags-delete';

export { deleteTag } from '../data/tags-delete';

/** A DELETE sweeps for at most 15 s; a deletion hidden this long ago is no longer being worked on. */
const STALE_MS = 2 * 60_000;

/** Finishes the tag deletions that a crash or a DELETE's time budget left half-way, until `deadline` (ms); returns how many. */
export const finishInterruptedDeletions = (now: Date, deadline: number) =>
  finishStaleDeletions(new Date(now.getTime() - STALE_MS), now, deadline);
