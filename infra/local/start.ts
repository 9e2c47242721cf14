import { mkdirSync } from 'node:fs';
import { clearRuntime, dataDir, writeRuntime } from './runtime-file';
import { seedOnFirstStart } from './seed';
import { startStack } from './stack';

/** `npm start`: the whole of Parley on this machine, with data kept under `.data/`. */
const main = async () => {
  const dir = dataDir();
  mkdirSync(dir, { recursive: true });
  const stack = await startStack({
    dataDir: dir,
    port: Number(process.env.PORT ?? 3000),
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT || undefined,
    sqsEndpoint: process.env.SQS_ENDPOINT || undefined,
    tableName: process.env.TABLE_NAME || undefined,
  });
  writeRuntime({ pid: process.pid, baseUrl: stack.baseUrl, dynamoEndpoint: stack.dynamoEndpoint, tableName: stack.tableName });

  const seeded = await seedOnFirstStart();
  const lines = [`Parley is running at ${stack.baseUrl}/api/v1`, `Data: ${dir}/ (persists across restarts)`];
  if (seeded) {
    lines.push(
      '',
      'First start: created a demo workspace and an admin token. The token is shown only this once:',
      `  workspace id: ${seeded.workspaceId}`,
      `  token:        ${seeded.token}`,
      '',
      `  curl -H "Authorization: Bearer ${seeded.token}" ${stack.baseUrl}/api/v1/auth/workspaces`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\nPress Ctrl-C to stop.\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping Parley…\n`);
    await stack.stop();
    clearRuntime();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
};

main().catch((error: unknown) => {
  process.stderr.write(`Parley failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
