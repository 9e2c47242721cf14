import type { Pluggable } from '@smithy/types';

/**
 * Middleware added to every AWS client this code base creates. Nothing registers any on AWS; the local
 * runtime registers the checks that make it refuse what AWS would refuse (IAM grants, service limits).
 */
const plugins: Pluggable<any, any>[] = [];

export const registerClientPlugin = (plugin: Pluggable<any, any>): void => {
  plugins.push(plugin);
};

export const withPlugins = <C extends { middlewareStack: { use(p: Pluggable<any, any>): void } }>(client: C): C => {
  for (const plugin of plugins) client.middlewareStack.use(plugin);
  return client;
};
