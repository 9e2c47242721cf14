import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import { dirname, join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import type { RuntimeInfo } from '../local/runtime-file';
import type { Session } from './session';
import { CliError } from './target';

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

/**
 * The certificate and key to serve with: those of the certificate the running Parley trusts
 * (NODE_EXTRA_CA_CERTS, which `npm start` points at `<data>/receiver/cert.pem`), with `key.pem` beside it.
 * Delivering to 127.0.0.1 also needs the local loopback allowance, which `npm start` turns on.
 */
const receiverTls = (runtime: RuntimeInfo) => {
  const restart = `restart it with \`npm start\` (which sets both), or with WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=${join(runtime.dataDir, 'receiver', 'cert.pem')}`;
  if (!runtime.allowsLoopbackTargets) throw new CliError(`The running Parley (pid ${runtime.pid}) refuses loopback webhook targets (WEBHOOK_ALLOW_PRIVATE_TARGETS is not true): ${restart}`);
  const key = runtime.extraCaCerts && join(dirname(runtime.extraCaCerts), 'key.pem');
  if (!runtime.extraCaCerts || !key || !existsSync(runtime.extraCaCerts) || !existsSync(key)) {
    const trusted = runtime.extraCaCerts ? `trusts ${runtime.extraCaCerts}, which has no key.pem beside it` : 'trusts no local certificate (NODE_EXTRA_CA_CERTS is unset)';
    throw new CliError(`The running Parley (pid ${runtime.pid}) ${trusted}, so it cannot verify a local HTTPS receiver: ${restart}`);
  }
  return { cert: readFileSync(runtime.extraCaCerts), key: readFileSync(key) };
};

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
    Object.entries(headers).filter((e): e is [string, string] => typeof e[1] === 'string' && (/^(x-)?webhook-/.test(e[0]) || e[0] === 'content-type' || e[0] === 'user-agent')),
  );

/**
 * `parley listen`: an HTTPS receiver on 127.0.0.1 with a webhook subscription of its own, which prints
 * each delivery whose Standard Webhooks signature verifies (and refuses the others), optionally forwards
 * it, and deletes the subscription when stopped (SIGINT, SIGTERM).
 */
export const listen = async (session: Session, opts: ListenOptions): Promise<void> => {
  const { api, runtime } = session;
  const events = opts.events ? opts.events.split(',').map((e) => e.trim()).filter(Boolean) : ['*'];
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
      const forwarded = await fetch(opts.forwardTo, { method: 'POST', headers: forwardedHeaders(req.headers), body }).then(
        (r) => `${r.status}`,
        (error: unknown) => `failed (${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)})`,
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
      (error: unknown) => (say(`Could not delete subscription ${subscriptionId}: ${error instanceof Error ? error.message : String(error)}`), false),
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
