import { config } from '../config';
import { clientPerLane, onFirstUse, withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

/**
 * Systems Manager Parameter Store: where the files bucket's download signing key is kept (a SecureString, under
 * the account's `aws/ssm` key). A container reads it once, so the SDK is loaded then, not at every cold start.
 */
const loaded = onFirstUse(async () => {
  const sdk = await import('@aws-sdk/client-ssm');
  const client = clientPerLane((requestHandler) =>
    tracedClient(withPlugins(new sdk.SSMClient({ region: config().AWS_REGION, requestHandler }))),
  );
  return { sdk, client };
});

const named = (error: unknown, name: string) => (error as { name?: string }).name === name;

/** A SecureString's value, decrypted; undefined when there is no such parameter. */
export const readSecureParameter = async (name: string): Promise<string | undefined> => {
  const { sdk, client } = await loaded();
  try {
    return (await client().send(new sdk.GetParameterCommand({ Name: name, WithDecryption: true }))).Parameter?.Value;
  } catch (error) {
    if (named(error, 'ParameterNotFound')) return undefined;
    throw error;
  }
};

/** Creates a SecureString, never overwriting one: answers false when the parameter already exists. */
export const createSecureParameter = async (name: string, value: string, description: string): Promise<boolean> => {
  const { sdk, client } = await loaded();
  try {
    await client().send(
      new sdk.PutParameterCommand({ Name: name, Value: value, Type: 'SecureString', Overwrite: false, Description: description }),
    );
    return true;
  } catch (error) {
    if (named(error, 'ParameterAlreadyExists')) return false;
    throw error;
  }
};

/** Deletes a parameter; one that is not there is deleted already. */
export const deleteParameter = async (name: string): Promise<void> => {
  const { sdk, client } = await loaded();
  try {
    await client().send(new sdk.DeleteParameterCommand({ Name: name }));
  } catch (error) {
    if (!named(error, 'ParameterNotFound')) throw error;
  }
};
