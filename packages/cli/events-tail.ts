import { WebSocket } from 'ws';
import type { ParleyEvent } from '../client/src/index';
import { eventPatterns } from './event-patterns';
import { modeName, type Session } from './session';

export interface TailOptions {
  /** Comma-separated event types or wildcards (default: every event the token may read). */
  types?: string;
  json?: boolean;
}

const line = (e: ParleyEvent, json: boolean | undefined) => (json ? JSON.stringify(e) : `${e.occurredAt}  ${e.eventType}  ${e.eventId}`);

/**
 * `parley events tail`: the workspace's events as they happen, one a line, until `signal` aborts. It reads the
 * realtime socket through `@parley/client`, which resumes after a drop from the newest event it printed, so
 * nothing is missed or printed twice.
 */
export const tailEvents = async (
  session: Pick<Session, 'api' | 'workspaceId' | 'livemode'>,
  opts: TailOptions,
  signal: AbortSignal,
  print: (line: string) => void = (l) => process.stdout.write(`${l}\n`),
): Promise<void> => {
  const events = eventPatterns(opts.types);
  process.stderr.write(`Streaming ${events.join(', ')} in workspace ${session.workspaceId} (${modeName(session)}). Stop with Ctrl-C.\n`);
  for await (const event of session.api.realtime.subscribe({ events, WebSocket, signal })) print(line(event, opts.json));
};
