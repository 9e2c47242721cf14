import { expect, it } from 'vitest';
import { readConfig } from '../../shared/config';

it('gives every unset variable its default, leaves unset optional ones absent and drops variables it does not know', () => {
  const read = readConfig({ PATH: '/usr/bin', HOME: '/root' });
  expect(read).toEqual({
    STAGE: 'local',
    AWS_REGION: 'us-east-1',
    TABLE_NAME: 'parley',
    EVENT_BUS_NAME: 'parley',
    REALTIME_URL: 'ws://127.0.0.1:3000/realtime',
    FILES_BUCKET: 'parley-files',
    LOCAL_SECRETS_KEY_FILE: '.data/secrets.key',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: false,
    AUTH_FAILURE_LIMIT: 100,
    LOG_LEVEL: 'info',
  });
});

it('reads what is set: text as it is, a URL without its surrounding spaces, a flag as a boolean, a limit as a number', () => {
  const read = readConfig({
    STAGE: 'prod',
    TABLE_NAME: '',
    DYNAMODB_ENDPOINT: '  http://127.0.0.1:8000 ',
    FILES_DOWNLOAD_URL: 'https://d111.cloudfront.net',
    WEBHOOK_QUEUE_URL: 'not checked',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    AUTH_FAILURE_LIMIT: '7',
    LOG_LEVEL: 'silent',
    AWS_LAMBDA_FUNCTION_NAME: 'parley-prod-get-token',
  });
  expect(read).toMatchObject({
    STAGE: 'prod',
    TABLE_NAME: '',
    DYNAMODB_ENDPOINT: 'http://127.0.0.1:8000',
    FILES_DOWNLOAD_URL: 'https://d111.cloudfront.net',
    WEBHOOK_QUEUE_URL: 'not checked',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: true,
    AUTH_FAILURE_LIMIT: 7,
    LOG_LEVEL: 'silent',
    AWS_LAMBDA_FUNCTION_NAME: 'parley-prod-get-token',
  });
  expect(readConfig({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' }).WEBHOOK_ALLOW_PRIVATE_TARGETS).toBe(false);
});

it('refuses an invalid environment at once, naming every variable that is wrong and why', () => {
  expect(() =>
    readConfig({
      S3_ENDPOINT: 'not a url',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'yes',
      AUTH_FAILURE_LIMIT: '1.5',
      LOG_LEVEL: 'verbose',
    }),
  ).toThrow(
    'Invalid environment: S3_ENDPOINT must be a URL; WEBHOOK_ALLOW_PRIVATE_TARGETS must be one of "true", "false"; ' +
      'AUTH_FAILURE_LIMIT must be a positive integer; LOG_LEVEL must be one of "debug", "info", "warn", "error", "silent"',
  );
  for (const limit of ['0', '-3', '', 'ten'])
    expect(() => readConfig({ AUTH_FAILURE_LIMIT: limit })).toThrow(/AUTH_FAILURE_LIMIT must be a positive integer/);
});
