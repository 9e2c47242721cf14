import { DeleteParameterCommand, GetParameterCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { config } from '../config';
import { clientPerLane, withPlugins } from './plugins';
import { tracedClient } from '../observability/tracing';

/** Systems Manager Parameter Store: where the files bucket's download signing key is kept (a SecureString, under the account's `aws/ssm` key). */
const ssm = clientPerLane((requestHandler) => tracedClient(withPlugins(new SSMClient({ region: config().AWS_REGION, requestHandler }))));

const named = (error: unknown, name: string) => (error as { name?: string }).name === name;

/** A SecureString's value, decrypted; undefined when there is no such parameter. */
export const readSecureParameter = async (name: string): Promise<string | undefined> => {
  try {
    return (await ssm().send(new GetParameterCommand({ Name: name, WithDecryption: true }))).Parameter?.Value;
  } catch (error) {
    if (named(error, 'ParameterNotFound')) return undefined;
    throw error;
  }
};

/** Creates a SecureString, never overwriting one: answers false when the parameter already exists. */
export const createSecureParameter = async (name: string, value: string, description: string): Promise<boolean> => {
  try {
    await ssm().send(
      new PutParameterCommand({ Name: name, Value: value, Type: 'SecureString', Overwrite: false, Description: description }),
    );
    return true;
  } catch (error) {
    if (named(error, 'ParameterAlreadyExists')) return false;
    throw error;
  }
};

/** Deletes a parameter; one that is not there is deleted already. */
export const deleteParameter = async (name: string): Promise<void> => {
  try {
    await ssm().send(new DeleteParameterCommand({ Name: name }));
  } catch (error) {
    if (!named(error, 'ParameterNotFound')) throw error;
  }
};
