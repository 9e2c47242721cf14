import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { startDynamoLocal } from '../../infra/local/dynamodb';
import { TLS_DIR_ENV, createTestCertificate } from './tls';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** One in-memory DynamoDB Local for the whole run; every test file gets its own table in it. */
export default async function setup(project: TestProject) {
  // Node reads NODE_EXTRA_CA_CERTS only at start-up, so it must be set before the test workers fork.
  const tls = await createTestCertificate();
  process.env[TLS_DIR_ENV] = tls.dir;
  process.env.NODE_EXTRA_CA_CERTS = tls.certFile;
  const dynamo = await startDynamoLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    await dynamo.stop();
    rmSync(tls.dir, { recursive: true, force: true });
  };
}
