import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { Session } from './session';
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
 * it, and deletes the subscription when stopped (SIGINT, SIGTERM).
 */
export const listen = async (session: Session, opts: ListenOptions): Promise<void> => {
  const { api, runtime } = session;
  const events = opts.events
    ? opts.events
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)
    : ['*'];
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const print = (line: string) => process.stdout.write(`${line}\n`);
  let secret = '';

  const server: Server = createServer(receiverTls(runtime), async (req, res) => {
    const body = await readBody(req);
    let event: Delivery;
    try {
      event = new Webhook(secret).verify(body, req.headers as Record<string, string>) as Delivery;
    } catch (error) {
      say(`Refused a delivery whose signature does not verify: ${error instanceof Error ? error.message : String(error)}`);
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/`;

  let subscriptionId: string;
  try {
    const { subscription } = (await api.post('/integrations/webhooks', { body: { url, events } })).data;
    subscriptionId = subscription._id;
    secret = subscription.secret;
  } catch (error) {
    server.close();
    await session.close();
    throw error;
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    server.close();
    server.closeAllConnections();
    const deleted = await api.delete('/integrations/webhooks/{id}', { params: { path: { id: subscriptionId } } }).then(
      () => true,
      (error: unknown) => {
        say(`Could not delete subscription ${subscriptionId}: ${error instanceof Error ? error.message : String(error)}`);
        return false;
      },
    );
    if (deleted) say(`Deleted subscription ${subscriptionId}.`);
    await session.close();
    process.exit(deleted ? 0 : 1);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  say(
    [
      `Ready: listening on ${url} for ${events.join(', ')} in workspace ${session.workspaceId} (${session.mode} mode)`,
      `through subscription ${subscriptionId}, which is deleted on exit. Stop with Ctrl-C.`,
      `Its signing secret, to verify forwarded events: ${secret}`,
    ].join('\n'),
  );
};
