/** What a queue worker decides for a message: delete it, or make it reappear after `delayMs`. */
export type Verdict = { ack: true } | { ack: false; delayMs: number };
export const ACK: Verdict = { ack: true };
export const later = (delayMs: number): Verdict => ({ ack: false, delayMs: Math.max(0, delayMs) });
