import { locateRuntime, RuntimeNotFound, type RuntimeInfo } from '../../infra/local/runtime-file';

export class CliError extends Error {}

/** The running `npm start` (found by its runtime file), or a CliError naming what to set. */
export const localRuntime = (): RuntimeInfo => {
  try {
    return locateRuntime();
  } catch (error) {
    if (error instanceof RuntimeNotFound) throw new CliError(error.message);
    throw error;
  }
};

export interface TargetOptions {
  aws?: boolean;
  table?: string;
}

/**
 * Points the shared data layer at the right table: AWS (default credential chain, `--table` or TABLE_NAME),
 * an explicit DYNAMODB_ENDPOINT, or the locally running `npm start` found through its runtime file.
 */
export const connect = (opts: TargetOptions): string => {
  const env = process.env;
  if (opts.table) env.TABLE_NAME = opts.table;
  if (opts.aws || env.PARLEY_TARGET === 'aws') {
    if (!env.TABLE_NAME)
      throw new CliError('AWS target needs the table name: pass --table <name> or set TABLE_NAME (stack output TableName)');
    delete env.DYNAMODB_ENDPOINT;
    return `AWS table ${env.TABLE_NAME}`;
  }
  if (!env.DYNAMODB_ENDPOINT) {
    const runtime = localRuntime();
    env.DYNAMODB_ENDPOINT = runtime.dynamoEndpoint;
    env.TABLE_NAME ??= runtime.tableName;
  }
  env.AWS_ACCESS_KEY_ID ??= 'local';
  env.AWS_SECRET_ACCESS_KEY ??= 'local';
  env.AWS_REGION ??= 'us-east-1';
  env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return `local table ${env.TABLE_NAME ?? 'parley'} at ${env.DYNAMODB_ENDPOINT}`;
};
