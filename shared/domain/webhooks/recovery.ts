/** Deliveries one recovery re-sends at most (the oldest first); a further call goes on with the rest. */
export const MAX_RECOVERED = 1000;

export interface Recovery {
  _id: string;
  since: string;
  until: string;
  /** Failed deliveries this call re-sent. */
  deliveries: number;
}
