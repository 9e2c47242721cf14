import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../infra/local/dynamodb';
import { TLS_DIR_ENV, createTestCertificate } from './tls';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoints: string[];
  }
}

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/**
 * One in-memory DynamoDB Local per test worker; every test file gets its own table in its worker's.
 * DynamoDB Local keeps all its tables in one SQLite database, so two files sharing one make each other's
 * writes wait on its lock: a burst in one file slowed the other tenfold and timed some of it out.
 */
export default async function setup(project: TestProject) {
  // Node reads NODE_EXTRA_CA_CERTS only at start-up, so it must be set before the test workers fork.
  const tls = await createTestCertificate();
  process.env[TLS_DIR_ENV] = tls.dir;
  process.env.NODE_EXTRA_CA_CERTS = tls.certFile;
  const workers = Math.max(1, Number(project.config.maxWorkers) || 1);
  const dynamos = await Promise.all(Array.from({ length: workers }, () => startDynamoLocal()));
  project.provide('dynamoEndpoints', dynamos.map((d) => d.endpoint));
  return async () => {
    await Promise.all(dynamos.map((d) => d.stop()));
    rmSync(tls.dir, { recursive: true, force: true });
  };
}
