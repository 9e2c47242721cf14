import { OutputFormat, SourceMapMode, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { BuildOptions } from 'esbuild';

/**
 * The one set of esbuild settings for every function: the house construct hands them to NodejsFunction and
 * the bundle benchmark hands them to esbuild directly, so the measured bundles are the deployed ones.
 * The AWS SDK is bundled (not taken from the runtime) so versions are pinned and tree-shaken.
 */
const settings = {
  target: 'node22',
  minify: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require() for Node built-ins; ESM output has no require of its own.
  banner: "import { createRequire as __parleyRequire } from 'node:module'; const require = __parleyRequire(import.meta.url);",
};

export const nodejsBundling: BundlingOptions = {
  target: settings.target,
  format: OutputFormat.ESM,
  minify: settings.minify,
  sourceMap: true,
  sourceMapMode: SourceMapMode.DEFAULT,
  sourcesContent: settings.sourcesContent,
  mainFields: settings.mainFields,
  banner: settings.banner,
  externalModules: [],
  bundleAwsSDK: true,
  forceDockerBundling: false,
};

export const esbuildOptions: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: settings.target,
  minify: settings.minify,
  sourcemap: true,
  sourcesContent: settings.sourcesContent,
  mainFields: settings.mainFields,
  banner: { js: settings.banner },
  outExtension: { '.js': '.mjs' },
};
