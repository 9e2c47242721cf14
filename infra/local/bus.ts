import type { Pluggable } from '@smithy/types';
import { registerClientPlugin } from '../../shared/aws/plugins';
import type { Wiring } from '../../functions/wiring/types';
import { busEvent, route } from './event-router';

/**
 * The local runtime's EventBridge PutEvents: the code's own EventBridge client puts its entries on the local
 * bus, where the wiring's rules route them as the outbox pipe's. Like PutEvents it answers once the entries
 * are accepted, without waiting for the rules' targets. It sits behind the IAM guard (`events:PutEvents`).
 */
type Entry = { Source?: string; DetailType?: string; Detail?: string };

const busPlugin = (wiring: Wiring): Pluggable<any, any> => ({
  applyToStack: (stack) => {
    stack.add(
      (next, context) => async (args) => {
        if (context.clientName !== 'EventBridgeClient') return next(args);
        if (context.commandName !== 'PutEventsCommand')
          throw new Error(`The local bus answers PutEvents only, not ${String(context.commandName)}`);
        const entries = ((args.input as { Entries?: Entry[] }).Entries ?? []).map((e) =>
          busEvent(e.Source ?? '', e.DetailType ?? '', JSON.parse(e.Detail ?? '{}')),
        );
        for (const event of entries) {
          route(wiring.rules, event).catch((error: unknown) =>
            process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'local bus routing failed', error: String(error) })}\n`),
          );
        }
        const output = { FailedEntryCount: 0, Entries: entries.map((e) => ({ EventId: e.id })), $metadata: { httpStatusCode: 200 } };
        return { output, response: { statusCode: 200, headers: {} } };
      },
      // After the IAM guard (build, high), before anything is signed or sent.
      { step: 'build', name: 'parleyLocalBus', priority: 'low' },
    );
  },
});

let installed = false;

/** Answers the code's PutEvents calls on the local bus (idempotent). */
export const installLocalBus = (wiring: Wiring): void => {
  if (installed) return;
  installed = true;
  registerClientPlugin(busPlugin(wiring));
};
