import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { LOGGER_MIDDLEWARE, withPlugins } from '../../../shared/aws/plugins';

const names = (client: { middlewareStack: { identify(): string[] } }) =>
  client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);

describe("the project's AWS clients", () => {
  it("leave out the SDK's logger middleware, and only it", () => {
    for (const make of [() => new DynamoDBClient({ region: 'us-east-1' }), () => new SQSClient({ region: 'us-east-1' })]) {
      const before = names(make());
      // The SDK still names it so: otherwise the removal would silently do nothing.
      expect(before).toContain(LOGGER_MIDDLEWARE);
      expect(names(withPlugins(make()))).toEqual(before.filter((name) => name !== LOGGER_MIDDLEWARE));
    }
  });

  it('a document client made on one has none either', () => {
    const document = DynamoDBDocumentClient.from(withPlugins(new DynamoDBClient({ region: 'us-east-1' })));
    expect(names(document)).not.toContain(LOGGER_MIDDLEWARE);
    expect(names(document)).toContain('retryMiddleware');
  });
});
