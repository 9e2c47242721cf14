/**
 * What a function's bundle has for the AWS SDK's default credential chain (`@aws-sdk/credential-provider-node`,
 * swapped by the `alias` in infra/constructs/bundling.ts): Lambda hands every function its role's credentials
 * in the environment, for the container's life, so the chain's other providers (SSO, profiles, web identity,
 * the instance metadata service) and the STS and SSO clients they carry are about 75 KB a bundle never uses.
 * The local runtime and the tools run unbundled, with the whole chain.
 */
export const defaultProvider = () => async () => {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
  if (!accessKeyId || !secretAccessKey) throw new Error("No AWS credentials in the environment, where Lambda puts the function role's");
  return { accessKeyId, secretAccessKey, sessionToken };
};
