import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { join, resolve } from 'node:path';
import { verify } from '@octokit/webhooks-methods';
import { generateSecret } from '../../shared/domain/webhooks/subscription';
import { localhostCertificate } from './certificate';
import { dataDir, readRuntime } from './runtime-file';

/**
 * `npm run receiver [-- <secret>]`: an HTTPS webhook receiver on 127.0.0.1 that checks each delivery's
 * signature and prints one line per delivery. The secret comes from the argument or WEBHOOK_SECRET;
 * without either, one is generated. RECEIVER_PORT picks the port (default 4443, 0 for any).
 */
const secret = process.argv[2] ?? process.env.WEBHOOK_SECRET ?? generateSecret();
const { certFile, keyFile } = await localhostCertificate(join(dataDir(), 'receiver'));

const server = createServer({ cert: readFileSync(certFile), key: readFileSync(keyFile) }, (req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const signature = req.headers['x-webhook-signature'];
    const valid = typeof signature === 'string' && (await verify(secret, body, signature).catch(() => false));
    const event = `${req.headers['x-webhook-event'] ?? '?'} ${req.headers['x-webhook-id'] ?? '?'}`;
    process.stdout.write(
      `${new Date().toISOString()}  ${event}  attempt ${req.headers['x-webhook-attempt'] ?? '?'}  signature ${valid ? 'valid' : 'INVALID'}\n`,
    );
    res.writeHead(valid ? 200 : 401).end();
  });
});
server.listen(Number(process.env.RECEIVER_PORT ?? 4443), '127.0.0.1', () => {
  const url = `https://127.0.0.1:${(server.address() as { port: number }).port}/`;
  const api = readRuntime()?.baseUrl ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
  const subscription = JSON.stringify({ url, events: ['*'], secret });
  process.stdout.write(
    [
      `Webhook receiver listening on ${url} with secret ${secret}`,
      '',
      'Start Parley so that it may deliver to this receiver and trusts its certificate:',
      `  WEBHOOK_ALLOW_PRIVATE_TARGETS=true NODE_EXTRA_CA_CERTS=${resolve(certFile)} npm start`,
      '',
      'Subscribe it to every event (TOKEN and WS as printed by npm start):',
      `  curl -s -X POST ${api}/api/v1/integrations/webhooks -H "Authorization: Bearer $TOKEN" -H "x-workspace-id: $WS" \\`,
      `       -H 'Content-Type: application/json' -d '${subscription}'`,
      '',
      'Deliveries:',
      '',
    ].join('\n'),
  );
});
const stop = () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
