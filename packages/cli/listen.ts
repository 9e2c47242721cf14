import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { modeName, type Session } from './session';
import { eventPatterns } from './event-patterns';
import { receiverTls } from './receiver-tls';

export interface ListenOptions {
  events?: string;
  forwardTo?: string;
  json?: boolean;
}

interface Delivery {
  eventId: string;
  eventType: string;
  occurredAt: string;
  data: Record<string, { _id?: string } | unknown>;
}

/** The resources an event names, e.g. `conversation 6650…`, for its one-line summary. */
const subjects = (data: Delivery['data']) =>
  Object.entries(data)
    .map(([name, value]) => (value && typeof value === 'object' && '_id' in value ? `${name} ${String(value._id)}` : undefined))
    .filter(Boolean)
    .join('  ');

const readBody = (req: NodeJS.ReadableStream) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** The delivery's own headers, passed on to `--forward-to` so that the application can verify it too. */
const forwardedHeaders = (headers: IncomingHttpHeaders) =>
  Object.fromEntries(
    Object.entries(headers).filter(
      (e): e is [string, string] =>
        typeof e[1] === 'string' && (/^(x-)?webhook-/.test(e[0]) || e[0] === 'content-type' || e[0] === 'user-agent'),
    ),
  );

/**
 * `parley listen`: an HTTPS receiver on 127.0.0.1 with a webhook subscription of its own, which prints
 * each delivery whose Standard Webhooks signature verifies (and refuses the others), optionally forwards
 * it, and deletes the subscription when stopped (SIGINT, SIGTERM, SIGHUP). Whatever ends it, a failure to
 * start or a crash included, it deletes the subscription it made and revokes the session's own token.
 */
export const listen = async (session: Session, opts: ListenOptions): Promise<void> => {
  const { api, runtime } = session;
  const events = eventPatterns(opts.events);
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let secret = '';
  let server: Server | undefined;
  let subscriptionId: string | undefined;

  /** Deletes what it made and revokes the token; true when nothing was left behind. */
  const cleanUp = async (): Promise<boolean> => {
    server?.close();
    server?.closeAllConnections();
    let clean = true;
    if (subscriptionId) {
      const id = subscriptionId;
      clean = await api.delete('/integrations/webhooks/{id}', { params: { path: { id } } }).then(
        () => {
          say(`Deleted subscription ${id}.`);
          return true;
        },
        (error: unknown) => {
          say(`Could not delete subscription ${id}: ${messageOf(error)}`);
          return false;
        },
      );
    }
    await session.close().catch((error: unknown) => {
      clean = false;
      say(`Could not revoke this session's token: ${messageOf(error)}`);
    });
    return clean;
  };

  try {
    server = createServer(receiverTls(runtime), async (req, res) => {
      const body = await readBody(req);
      let event: Delivery;
      try {
        event = new Webhook(secret).verify(body, req.headers as Record<string, string>) as Delivery;
      } catch (error) {
        say(`Refused a delivery whose signature does not verify: ${messageOf(error)}`);
        res.writeHead(400).end();
        return;
      }
      print(opts.json ? JSON.stringify(event) : `${event.occurredAt}  ${event.eventType}  ${event.eventId}  ${subjects(event.data)}`);
      if (opts.forwardTo) {
        const post = () => fetch(opts.forwardTo!, { method: 'POST', headers: forwardedHeaders(req.headers), body });
        // Once more on a network error, as when the app closes a kept-alive connection just as it is reused.
        const forwarded = await post()
          .catch(post)
          .then(
            (r) => `${r.status}`,
            (error: unknown) =>
              `failed (${error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error)})`,
          );
        say(`  forwarded ${event.eventId} to ${opts.forwardTo}: ${forwarded}`);
      }
      res.writeHead(200).end();
    });
    const listening = server;
    await new Promise<void>((resolve, reject) => {
      listening.once('error', reject);
      listening.listen(0, '127.0.0.1', resolve);
    });
    const url = `https://127.0.0.1:${(listening.address() as { port: number }).port}/`;
    const { subscription } = (await api.post('/integrations/webhooks', { body: { url, events } })).data;
    subscriptionId = subscription._id;
    secret = subscription.secret;
    say(
      [
        `Ready: listening on ${url} for ${events.join(', ')} in workspace ${session.workspaceId} (${modeName(session)})`,
        `through subscription ${subscriptionId}, which is deleted on exit. Stop with Ctrl-C.`,
        `Its signing secret, to verify forwarded events: ${secret}`,
      ].join('\n'),
    );
  } catch (error) {
    await cleanUp();
    throw error;
  }

  let stopping = false;
  const stop = async (failure?: unknown) => {
    if (stopping) return;
    stopping = true;
    if (failure !== undefined) say(`error: ${messageOf(failure)}`);
    const clean = await cleanUp();
    process.exit(clean && failure === undefined ? 0 : 1);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop());
  process.on('uncaughtException', (error) => void stop(error));
  process.on('unhandledRejection', (error) => void stop(error ?? 'unhandled rejection'));
};

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
