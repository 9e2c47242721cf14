import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AssetHashType, Stack } from 'aws-cdk-lib';
import { Code } from 'aws-cdk-lib/aws-lambda';
import { gzipSync } from 'node:zlib';
import { build, version, type BuildOptions, type Metafile, type Plugin } from 'esbuild';
import type { Construct } from 'constructs';
import { narrowSourceMapFile } from './own-code-source-map';

const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
/** Bundles by entry and settings, each with the content hashes of the files it was built from (gitignored). */
const BUNDLE_CACHE = join(REPO_ROOT, '.build', 'bundles');

const COMMITTED_DOCUMENT = join(REPO_ROOT, 'openapi.json');

/**
 * `shared/http/openapi-document.ts` reads the committed OpenAPI document from the repository; in a bundle it
 * is the document itself, minified and gzipped (1.8 MB of JSON, 0.9 MB minified, in about 75 KB of base64). The module resolves
 * to `openapi.json`, so the bundle cache sees the document as an input and rebuilds when it changes.
 */
const committedDocument: Plugin = {
  name: 'committed-openapi-document',
  setup: (b) => {
    b.onResolve({ filter: /\/openapi-document$/ }, () => ({ path: COMMITTED_DOCUMENT }));
    b.onLoad({ filter: /\/openapi\.json$/ }, () => {
      const text = JSON.stringify(JSON.parse(readFileSync(COMMITTED_DOCUMENT, 'utf8')));
      const gzipped = gzipSync(text).toString('base64');
      // Inflated into one buffer of the document's size (and a byte, so the stream ends in it), not zlib's 16 KB chunks joined.
      const chunkSize = Buffer.byteLength(text) + 1;
      return {
        loader: 'js',
        contents: `import { gunzipSync } from 'node:zlib';\nexport const openApiDocumentText = () => gunzipSync(Buffer.from(${JSON.stringify(gzipped)}, 'base64'), { chunkSize: ${chunkSize} }).toString('utf8');\n`,
      };
    });
  },
};

const DOMAIN = join(REPO_ROOT, 'shared', 'domain');

/**
 * A deployed function builds each schema declared with `built` (`shared/domain/built.ts`: the views, the entity
 * schemas) at its first use, not at import: a bundle has `built-lazily.ts` in its place. Source (tsx, vitest, the
 * OpenAPI generator) builds them at once.
 */
const schemasAtFirstUse: Plugin = {
  name: 'schemas-built-at-first-use',
  setup: (b) => {
    b.onResolve({ filter: /\/built$/ }, (args) =>
      resolve(args.resolveDir, args.path) === join(DOMAIN, 'built') ? { path: join(DOMAIN, 'built-lazily.ts') } : undefined,
    );
  },
};

/** zod's JSON Schema code (`zod/v4/core/`), which zod's classic schemas name from every constructor. */
const ZOD_JSON_SCHEMA = /^\.\.\/core\/(json-schema-processors|to-json-schema)\.js$/;
const ZOD_CLASSIC_SCHEMAS = /[\\/]zod[\\/]v4[\\/]classic[\\/]schemas\.js$/;

/**
 * A function carries zod's JSON Schema code (about 17 KB) only if it calls `z.toJSONSchema` (the event catalog):
 * zod's classic schemas name it from every constructor, for `schema.toJSONSchema()`, so every bundle had it. In a
 * bundle, what those schemas import of it is a stand-in: a schema's processor is the one `z.toJSONSchema` holds
 * for its type (what zod does for a schema without one; the classic schemas pair each type with that very
 * processor), `aggregateChecks` (a string's `.format`, a number's `.minValue`) is zod's own, and
 * `schema.toJSONSchema()` throws, so JSON Schema is `z.toJSONSchema`'s alone. Source (tsx, vitest, the OpenAPI
 * generator) has zod as it is.
 */
const jsonSchemaOnlyWhereAsked: Plugin = {
  name: 'zod-json-schema-only-where-asked',
  setup: (b) => {
    b.onResolve({ filter: ZOD_JSON_SCHEMA }, (args) =>
      ZOD_CLASSIC_SCHEMAS.test(args.importer)
        ? { path: relative(REPO_ROOT, resolve(args.resolveDir, args.path)), namespace: 'zod-json-schema-stand-in' }
        : undefined,
    );
    b.onLoad({ filter: /json-schema-processors\.js$/, namespace: 'zod-json-schema-stand-in' }, (args) => {
      const real = resolve(REPO_ROOT, args.path);
      const names = [...readFileSync(real, 'utf8').matchAll(/^export const (\w+Processor) =/gm)].map((m) => m[1]);
      return {
        resolveDir: dirname(real),
        loader: 'js',
        contents: [
          'export { aggregateChecks } from "./json-schema-processors.js";',
          'const byType = (schema, ctx, json, params) => {',
          '  const processor = ctx.processors[schema._zod.def.type];',
          '  if (!processor) throw new Error("[toJSONSchema]: Non-representable type encountered: " + schema._zod.def.type);',
          '  processor(schema, ctx, json, params);',
          '};',
          ...names.map((name) => `export const ${name} = byType;`),
        ].join('\n'),
      };
    });
    b.onLoad({ filter: /to-json-schema\.js$/, namespace: 'zod-json-schema-stand-in' }, () => ({
      loader: 'js',
      contents: [
        'const refused = () => { throw new Error("In a bundle, JSON Schema is z.toJSONSchema(schema) (infra/constructs/bundling.ts)"); };',
        'export const createToJSONSchemaMethod = () => refused;',
        'export const createStandardJSONSchemaMethod = () => refused;',
      ].join('\n'),
    }));
  },
};

/** What reaches `@aws-sdk/core`'s protocols from the DynamoDB client: its own JSON protocol and codec. */
const DYNAMODB_CLIENT = /[\\/]@aws-sdk[\\/](client-dynamodb|dynamodb-codec)[\\/]/;
/** The protocols index's lines for the other services' protocols (S3's REST-XML, the query and CBOR ones). */
const OTHER_PROTOCOLS = /^export \{[^}]*\} from "\.\/(xml|query|cbor)\/[^"]+";\n/gm;

/**
 * The DynamoDB client names its protocol from `@aws-sdk/core/protocols`' index, which re-exports every protocol.
 * esbuild puts a file that a function's lazy chunk uses (S3's XML protocol, `@aws-sdk/xml-builder`) in a chunk
 * loaded at the cold start whenever the start's code reaches that file at all, used or not: through this index, it
 * did in every function that loads S3 at first use. For the DynamoDB client (and only for it) the index is itself
 * less the other services' protocols; a name it needed from them would fail the build, not a call.
 */
const dynamoDbJsonProtocolOnly: Plugin = {
  name: 'dynamodb-json-protocol-only',
  setup: (b) => {
    b.onResolve({ filter: /^@aws-sdk\/core\/protocols$/ }, async (args) => {
      if (!DYNAMODB_CLIENT.test(args.importer) || args.pluginData === 'real') return undefined;
      const real = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'real' });
      return real.errors.length ? { errors: real.errors } : { path: relative(REPO_ROOT, real.path), namespace: 'dynamodb-protocols' };
    });
    b.onLoad({ filter: /./, namespace: 'dynamodb-protocols' }, (args) => {
      const real = resolve(REPO_ROOT, args.path);
      return { resolveDir: dirname(real), loader: 'js', contents: readFileSync(real, 'utf8').replace(OTHER_PROTOCOLS, '') };
    });
  },
};

/**
 * The one set of esbuild settings for every function: the house construct bundles with them and the bundle
 * benchmark hands them to esbuild directly, so the measured bundles are the deployed ones. Single minified ESM
 * files with a linked source map; the AWS SDK is bundled (not taken from the runtime) so versions are pinned
 * and tree-shaken.
 */
export const esbuildOptions: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  mainFields: ['module', 'main'],
  // Some CommonJS dependencies call require() for Node built-ins; ESM output has no require of its own.
  banner: { js: "import { createRequire as __parleyRequire } from 'node:module'; const require = __parleyRequire(import.meta.url);" },
  outExtension: { '.js': '.mjs' },
  plugins: [committedDocument, schemasAtFirstUse, jsonSchemaOnlyWhereAsked, dynamoDbJsonProtocolOnly],
  alias: { '@aws-sdk/credential-provider-node': resolve(REPO_ROOT, 'shared', 'aws', 'lambda-credentials.ts') },
};

/** A function's bundle: its directory (`index.mjs`, and `chunks/` when it loads code lazily) and what it is made of. */
export interface FunctionBundle {
  dir: string;
  /** Every file of the repository it was built from (relative to the repository's root). */
  inputs: string[];
  /** The files a cold start loads (`index.mjs` and the chunks it imports statically), with the bytes of each input in them. */
  start: { bytes: number; inputs: Record<string, number> };
  /** Bytes of the chunks loaded only at an `await import()`'s first run. */
  lazyBytes: number;
}

type Output = Metafile['outputs'][string];

/** Whether Parley's own code in this output loads a module with `await import()` (the SDK's own lazy imports aside). */
const loadsLazily = (metafile: Metafile, output: Output): boolean =>
  Object.keys(output.inputs).some(
    (path) => !path.includes('node_modules/') && metafile.inputs[path]?.imports.some((i) => i.kind === 'dynamic-import' && !i.external),
  );

/** An output and the outputs it imports statically, as a cold start loads them. */
const loadedAtStart = (metafile: Metafile, entry: string): string[] => {
  const seen = new Set([entry]);
  for (const path of seen)
    for (const i of metafile.outputs[path]!.imports) if (i.kind === 'import-statement' && metafile.outputs[i.path]) seen.add(i.path);
  return [...seen];
};

const described = (dir: string, metafile: Metafile, entry: string): FunctionBundle => {
  const code = Object.keys(metafile.outputs).filter((path) => path.endsWith('.mjs'));
  const atStart = loadedAtStart(metafile, entry);
  const inputs: Record<string, number> = {};
  for (const path of atStart)
    for (const [input, { bytesInOutput }] of Object.entries(metafile.outputs[path]!.inputs))
      inputs[input] = (inputs[input] ?? 0) + bytesInOutput;
  const bytesOf = (paths: string[]) => paths.reduce((sum, path) => sum + metafile.outputs[path]!.bytes, 0);
  return {
    dir,
    inputs: [...new Set(code.flatMap((path) => Object.keys(metafile.outputs[path]!.inputs)))],
    start: { bytes: bytesOf(atStart), inputs },
    lazyBytes: bytesOf(code.filter((path) => !atStart.includes(path))),
  };
};

/** Every source map a split build wrote (the index's and its chunks'), narrowed to Parley's own code. */
const narrowSourceMaps = (metafile: Metafile) => {
  for (const path of Object.keys(metafile.outputs)) if (path.endsWith('.map')) narrowSourceMapFile(resolve(REPO_ROOT, path));
};

/** Builds at most this many split bundles at once (each parses its own copy of the SDK). */
const SPLIT_BUILDS_AT_ONCE = 4;

/**
 * Bundles every function (name → handler file, relative to the repository's root) into `outdir/<name>/`. All
 * are built together as single files; a function whose code loads part of itself lazily (an SDK used on a
 * rare path, `shared/aws/plugins.ts`'s `onFirstUse`) is then built alone with code splitting, so its cold start
 * loads `index.mjs` and the chunks it imports, and the lazy part, in `chunks/`, only when first used.
 */
export const bundleFunctions = async (entries: Record<string, string>, outdir: string): Promise<Record<string, FunctionBundle>> => {
  const at = (name: string) => relative(REPO_ROOT, join(outdir, name, 'index.mjs'));
  for (const name of Object.keys(entries)) rmSync(join(outdir, name), { recursive: true, force: true });
  const whole = await build({
    ...esbuildOptions,
    entryPoints: Object.fromEntries(Object.entries(entries).map(([name, file]) => [`${name}/index`, resolve(REPO_ROOT, file)])),
    outdir,
    absWorkingDir: REPO_ROOT,
    metafile: true,
    logLevel: 'error',
  });
  const bundles: Record<string, FunctionBundle> = {};
  const split: string[] = [];
  for (const name of Object.keys(entries)) {
    const output = whole.metafile.outputs[at(name)];
    if (!output) throw new Error(`esbuild wrote no bundle for ${entries[name]}`);
    if (loadsLazily(whole.metafile, output)) split.push(name);
    else {
      narrowSourceMapFile(resolve(REPO_ROOT, `${at(name)}.map`));
      bundles[name] = described(join(outdir, name), { inputs: whole.metafile.inputs, outputs: { [at(name)]: output } }, at(name));
    }
  }
  const buildSplit = async (name: string) => {
    rmSync(join(outdir, name), { recursive: true, force: true });
    const { metafile } = await build({
      ...esbuildOptions,
      splitting: true,
      chunkNames: 'chunks/[name]-[hash]',
      entryPoints: { index: resolve(REPO_ROOT, entries[name]!) },
      outdir: join(outdir, name),
      absWorkingDir: REPO_ROOT,
      metafile: true,
      logLevel: 'error',
    });
    narrowSourceMaps(metafile);
    bundles[name] = described(join(outdir, name), metafile, at(name));
  };
  for (let i = 0; i < split.length; i += SPLIT_BUILDS_AT_ONCE) await Promise.all(split.slice(i, i + SPLIT_BUILDS_AT_ONCE).map(buildSplit));
  return bundles;
};

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
/**
 * The plugins' code is in this file and JSON keeps only their names, and the maps' narrowing is in its own: a change
 * of either must change every key.
 */
const BUNDLER_FILES = [import.meta.filename, join(import.meta.dirname, 'own-code-source-map.ts')];
const SETTINGS = sha(JSON.stringify({ version, esbuildOptions, bundler: BUNDLER_FILES.map((file) => sha(readFileSync(file))) }));
/** A handler's cache key: its path (relative to the repo root) under the current settings, this bundler and esbuild version. */
const keyOf = (entry: string) => sha(`${SETTINGS}\n${entry}`).slice(0, 32);
const assetDir = (key: string) => join(BUNDLE_CACHE, key, 'asset');
const inputsFile = (key: string) => join(BUNDLE_CACHE, key, 'inputs.json');

const fileHashes = new Map<string, string | undefined>();
const hashOf = (path: string): string | undefined => {
  if (!fileHashes.has(path)) {
    const file = resolve(REPO_ROOT, path);
    fileHashes.set(path, existsSync(file) ? sha(readFileSync(file)) : undefined);
  }
  return fileHashes.get(path);
};

/** A cached bundle is fresh while every file it was built from has the content it had then. */
const fresh = (key: string): boolean => {
  if (!existsSync(inputsFile(key))) return false;
  const inputs = JSON.parse(readFileSync(inputsFile(key), 'utf8')) as Record<string, string>;
  return Object.entries(inputs).every(([path, hash]) => hashOf(path) === hash);
};

/** Records what each new bundle was built from; written last, so a bundle interrupted mid-write is never taken as fresh. */
const record = (bundles: Record<string, FunctionBundle>) => {
  for (const [entry, bundle] of Object.entries(bundles)) {
    const inputs = bundle.inputs.filter((path) => existsSync(resolve(REPO_ROOT, path)));
    for (const path of inputs) fileHashes.delete(path);
    writeFileSync(inputsFile(keyOf(entry)), JSON.stringify(Object.fromEntries(inputs.map((path) => [path, hashOf(path)]))));
  }
};

const stale = (entries: Iterable<string>) => [...new Set(entries)].filter((entry) => !fresh(keyOf(entry)));

/**
 * Bundles every handler whose cached bundle is missing or stale in one esbuild run (esbuild shares the
 * parsing and uses every core), so the constructs then find them all in the cache.
 */
export const prebundle = async (entries: Iterable<string>): Promise<void> => {
  const missing = stale(entries);
  if (!missing.length) return;
  mkdirSync(BUNDLE_CACHE, { recursive: true });
  const bundles = await bundleFunctions(Object.fromEntries(missing.map((entry) => [join(keyOf(entry), 'asset'), entry])), BUNDLE_CACHE);
  record(Object.fromEntries(missing.map((entry) => [entry, bundles[join(keyOf(entry), 'asset')]!])));
};

/**
 * A handler's bundle, built now if the cache has none. CDK constructs are synchronous and esbuild runs plugins
 * only in its asynchronous build, so a missing bundle is built by `prebundle` in a child process.
 */
const bundled = (entry: string): string => {
  if (stale([entry]).length) {
    const script = `import { prebundle } from ${JSON.stringify(pathToFileURL(import.meta.filename).href)}; await prebundle(${JSON.stringify([entry])});`;
    execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: REPO_ROOT, stdio: 'inherit' });
    fileHashes.clear();
  }
  return assetDir(keyOf(entry));
};

/**
 * A handler's deployment package (`index.mjs` and its map; handler `index.handler`). When the stack's bundling
 * is skipped (`aws:cdk:bundling-stacks`, as template tests do), an empty asset named by the handler stands in.
 */
export const functionCode = (scope: Construct, entry: string): Code => {
  if (Stack.of(scope).bundlingRequired) return Code.fromAsset(bundled(entry));
  const empty = join(BUNDLE_CACHE, 'skipped');
  mkdirSync(empty, { recursive: true });
  return Code.fromAsset(empty, { assetHash: keyOf(entry), assetHashType: AssetHashType.CUSTOM });
};
