import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { SourceMap, type SourceMapPayload, type SourceMapping } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CfnElement } from 'aws-cdk-lib';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleFunctions, esbuildOptions, type FunctionBundle } from '../../infra/constructs/bundling';
import { startDynamoLocal } from '../../infra/local/dynamodb';
import { ensureTable } from '../../infra/local/table';
import { wiring } from '../../functions/wiring';
import type { ParleyFunction } from '../../infra/constructs/parley-function';
import { slotDynamo } from '../support/slots';
import { synth, type Synthesized } from './synth';

/** Bundles for real (local esbuild, no Docker): the fallback and the first real route, as `cdk synth` does. */
const bundled = {
  routes: wiring.routes.slice(0, 1),
  fallback: wiring.fallback,
  queues: [],
  rules: [],
  schedules: [],
  keys: [],
  buckets: [],
};

/**
 * The handlers the tests below read as deployed, bundled in one `bundleFunctions` run as `cdk synth`'s prebundle
 * bundles the wiring (one esbuild pass for all; those that load code lazily then built alone, with splitting).
 */
const HANDLERS = {
  'get-file': 'functions/http/files/get-file.ts',
  subscription: 'functions/http/webhooks/create-subscription.ts',
  bulk: 'functions/queues/run-bulk-job.ts',
  'list-workflows': 'functions/http/workflows/list-workflows.ts',
  update: 'functions/http/workflows/update-workflow.ts',
  'list-conversations': 'functions/http/inbox/list-conversations.ts',
  'create-lead': 'functions/http/crm/create-lead.ts',
  'list-event-types': 'functions/http/webhooks/list-event-types.ts',
  'list-tags': 'functions/http/tags/list-tags.ts',
  'update-channel': 'functions/http/channels/update-channel.ts',
  'send-broadcast': 'functions/queues/send-broadcast.ts',
  'erase-customer': 'functions/http/contacts/erase-customer.ts',
  'create-export': 'functions/http/contacts/create-customers-export.ts',
  'get-import': 'functions/http/contacts/get-customers-import.ts',
  'get-import-errors': 'functions/http/crm/get-leads-import-errors.ts',
  'create-import': 'functions/http/contacts/create-customers-import.ts',
  'create-workflow': 'functions/http/workflows/create-workflow.ts',
};
let handlersDir: string;
let handlers: Record<keyof typeof HANDLERS, FunctionBundle>;

let app: Synthesized;
let outdir: string;
/** Drops the file's table from the worker slot's warm DynamoDB Local (or stops the one started outside a vitest run). */
let releaseDynamo: () => Promise<void>;
/** What a bundled function is given to reach the local table (the tests' own process has the same). */
let env: Record<string, string>;
beforeAll(async () => {
  app = synth({ wiring: bundled, bundle: true });
  outdir = app.app.synth().directory;
  handlersDir = mkdtempSync(join(tmpdir(), 'parley-handlers-'));
  handlers = (await bundleFunctions(HANDLERS, handlersDir)) as typeof handlers;
  const tableName = `bundle-${process.pid}`;
  const slot = await slotDynamo();
  const own = slot ? undefined : await startDynamoLocal();
  releaseDynamo = async () => {
    await slot?.drop(tableName);
    await own?.stop();
  };
  env = {
    DYNAMODB_ENDPOINT: slot?.endpoint ?? own!.endpoint,
    TABLE_NAME: tableName,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
  };
  const ddb = new DynamoDBClient({
    endpoint: env.DYNAMODB_ENDPOINT,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  await ensureTable(ddb, env.TABLE_NAME!);
  ddb.destroy();
  Object.assign(process.env, env);
}, 300_000);
afterAll(async () => {
  for (const dir of [outdir, handlersDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  await releaseDynamo?.();
});

const assetOf = (fn: ParleyFunction): string => {
  const resource = app.template(fn.stack).toJSON().Resources[fn.stack.getLogicalId(fn.node.defaultChild as CfnElement)];
  const key = resource.Properties.Code.S3Key as string;
  return join(outdir, `asset.${key.replace(/\.zip$/, '')}`);
};

/** Imports a bundle in a fresh Node with no AWS credentials or region, optionally invoking its handler (with `env`). */
const importFresh = (file: string, event?: unknown, env: Record<string, string> = {}): string =>
  execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const m = await import(${JSON.stringify(pathToFileURL(file).href)});
       if (typeof m.handler !== 'function') throw new Error('no handler export');
       const event = ${JSON.stringify(event ?? null)};
       process.stdout.write(event ? JSON.stringify(await m.handler(event, {})) : 'loaded');`,
    ],
    // The OpenAPI function answers the whole document, past the default 1 MiB of output.
    { env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8', timeout: 30_000, maxBuffer: 64 * 1024 * 1024 },
  );

describe('bundled functions', () => {
  it('are single minified ESM files with a source map and the require shim, AWS SDK included', () => {
    for (const fn of app.functions()) {
      const dir = assetOf(fn);
      const code = readFileSync(join(dir, 'index.mjs'), 'utf8');
      expect(existsSync(join(dir, 'index.mjs.map'))).toBe(true);
      expect(code.startsWith('import { createRequire as __parleyRequire }')).toBe(true);
      expect(code).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
      // Minified: hundreds of characters per line (readable code averages ~40).
      expect(code.length / code.split('\n').length).toBeGreaterThan(200);
    }
    const route = app.functions().find((f) => f.kind === 'http' && f.spec !== wiring.fallback)!;
    const code = readFileSync(join(assetOf(route), 'index.mjs'), 'utf8');
    expect(code).toContain('DynamoDB');
    expect(code).not.toMatch(/from\s*"@aws-sdk\//);
    expect(statSync(join(assetOf(route), 'index.mjs')).size).toBeGreaterThan(10_000);
  });

  it("map Parley's own code only: the handler's export names its source line, no dependency is a source", () => {
    const route = app.functions().find((f) => f.kind === 'http' && f.spec !== wiring.fallback)!;
    const code = readFileSync(join(assetOf(route), 'index.mjs'), 'utf8');
    const map = JSON.parse(readFileSync(join(assetOf(route), 'index.mjs.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.filter((source) => source.includes('node_modules'))).toEqual([]);
    const handlerFile = route.spec.handler.replace(/^functions\//, '');
    expect(map.sources.some((source) => source.endsWith(handlerFile))).toBe(true);
    // `export{x as handler}`, and where the bundle declares it: `x=`, the first assignment to that name.
    const local = /export\{([\w$]+) as handler\}/.exec(code)![1]!;
    const at = new RegExp(`(?<![\\w$])${local.replaceAll('$', '\\$')}=`).exec(code)!.index;
    const line = code.slice(0, at).split('\n').length - 1;
    const column = at - code.lastIndexOf('\n', at) - 1;
    const found = new SourceMap(map as SourceMapPayload).findEntry(line, column) as Partial<SourceMapping>;
    expect(found.originalSource).toMatch(new RegExp(`${handlerFile.replaceAll('.', '\\.')}$`));
  });

  it('are one file each when their code loads nothing lazily', () => {
    for (const fn of app.functions()) expect(existsSync(join(assetOf(fn), 'chunks'))).toBe(false);
  });

  it('load in a fresh Node process without AWS credentials or network', () => {
    for (const fn of app.functions()) expect(importFresh(join(assetOf(fn), 'index.mjs'))).toBe('loaded');
  });

  it('run: the bundled fallback authenticates against DynamoDB, then answers an unknown route with the contract 404', async () => {
    const { createTenant } = await import('../support/tenants');
    const { token } = await createTenant(['inbox:read']);
    const fallback = app.functions().find((f) => f.spec === wiring.fallback)!;
    const call = (authorization?: string) => {
      const event = {
        rawPath: '/api/v1/nope',
        requestContext: { requestId: 'r-1', http: { method: 'GET', sourceIp: '127.0.0.1' } },
        headers: authorization ? { authorization } : {},
      };
      const response = JSON.parse(importFresh(join(assetOf(fallback), 'index.mjs'), event, env)) as {
        statusCode: number;
        body: string;
        headers: Record<string, string>;
      };
      return { ...response, body: JSON.parse(response.body) };
    };
    expect(call()).toMatchObject({ statusCode: 401, body: { success: false, error: { code: 'UNAUTHORIZED' } } });
    const found = call(`Bearer ${token}`);
    expect(found).toMatchObject({ statusCode: 404, body: { success: false, error: { code: 'NOT_FOUND' } } });
    expect(found.headers['X-RateLimit-Limit']).toBe('300');
  });
});

describe('the OpenAPI function', () => {
  it('serves the committed document from its bundle, without the generator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-openapi-'));
    try {
      const root = resolve(import.meta.dirname, '..', '..');
      const { metafile } = await build({
        ...esbuildOptions,
        entryPoints: { index: join(root, 'functions/http/docs/get-openapi.ts') },
        outdir: dir,
        absWorkingDir: root,
        metafile: true,
        logLevel: 'error',
      });
      const inputs = Object.keys(metafile.inputs);
      expect(inputs).toContain('openapi.json');
      expect(inputs.filter((path) => path.startsWith('infra/'))).toEqual([]);
      expect(inputs.filter((path) => path.startsWith('functions/'))).toEqual(['functions/http/docs/get-openapi.ts']);
      expect(statSync(join(dir, 'index.mjs')).size).toBeLessThan(500 * 1024);
      const event = {
        rawPath: '/api/v1/openapi.json',
        requestContext: { requestId: 'r-1', http: { method: 'GET', sourceIp: '127.0.0.1' } },
        headers: {},
      };
      const response = JSON.parse(importFresh(join(dir, 'index.mjs'), event)) as {
        statusCode: number;
        headers: Record<string, string>;
        body: string;
      };
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.body)).toEqual(JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')));
      // The same answer as source's handler, byte for byte: the committed document's minified text, never parsed.
      const { handler } = await import('../../functions/http/docs/get-openapi');
      const source = (await handler(event as never, {} as never)) as { statusCode: number; headers: Record<string, string>; body: string };
      expect(response.body === source.body).toBe(true);
      expect(response.body === JSON.stringify(JSON.parse(readFileSync(join(root, 'openapi.json'), 'utf8')))).toBe(true);
      expect({ ...response.headers, 'X-Request-Id': '' }).toEqual({ ...source.headers, 'X-Request-Id': '' });
      expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a function whose code loads an SDK lazily (files: S3 and SSM at their first use)', () => {
  it('is split: its cold start imports index.mjs and chunks without the SDK, which is a chunk loaded at first use', async () => {
    const bundle = handlers['get-file'];
    const dir = bundle.dir;
    const index = readFileSync(join(dir, 'index.mjs'), 'utf8');
    const chunks = readdirSync(join(dir, 'chunks')).filter((file) => file.endsWith('.mjs'));
    const lazy = [...index.matchAll(/import\("\.\/chunks\/([^"]+)"\)/g)].map((m) => m[1]!);
    // An S3 operation's name is in its serializer: in a chunk loaded only by an `import()`.
    const s3 = chunks.filter((file) => readFileSync(join(dir, 'chunks', file), 'utf8').includes('"PutObjectTagging"'));
    expect(index).not.toContain('"PutObjectTagging"');
    expect(s3.length).toBeGreaterThan(0);
    expect(s3.some((file) => lazy.includes(file))).toBe(true);
    expect(bundle.lazyBytes).toBeGreaterThan(100 * 1024);
    expect(bundle.start.bytes).toBeLessThan(500 * 1024);
    expect(Object.keys(bundle.start.inputs).some((input) => input.includes('@aws-sdk/client-s3/'))).toBe(false);
    expect(importFresh(join(dir, 'index.mjs'))).toBe('loaded');
    // What the first use loads loads too, in a fresh Node, beside the bundle as deployed.
    const loads = lazy.map((file) => `await import(${JSON.stringify(pathToFileURL(join(dir, 'chunks', file)).href)});`).join('');
    expect(
      execFileSync(process.execPath, ['--input-type=module', '-e', `${loads} process.stdout.write('loaded');`], { encoding: 'utf8' }),
    ).toBe('loaded');
  });
});

describe("S3's XML protocol in a function that loads S3 at first use", () => {
  it("is in S3's chunk only: the DynamoDB client names its protocols without it, and reads and answers from its bundle", async () => {
    const bundle = handlers['get-file'];
    const atStart = (path: string) => Object.keys(bundle.start.inputs).some((input) => input.includes(path));
    for (const path of ['@aws-sdk/xml-builder/', '@aws-sdk/core/dist-es/submodules/protocols/xml/']) {
      expect(atStart(path)).toBe(false);
      expect(bundle.inputs.some((input) => input.includes(path))).toBe(true);
    }
    // The DynamoDB client's protocols index is the stand-in (`dynamodb-json-protocol-only`), the JSON protocol real.
    expect(atStart('dynamodb-protocols:node_modules/@aws-sdk/core/dist-es/submodules/protocols/index.js')).toBe(true);
    expect(atStart('@aws-sdk/core/dist-es/submodules/protocols/json/AwsJson1_0Protocol.js')).toBe(true);
    // A request in a fresh Node reads the token and the file's item from DynamoDB Local through that client.
    const { createTenant } = await import('../support/tenants');
    const id = '0123456789abcdef01234567';
    const event = { ...request('GET', `/api/v1/files/${id}`, await createTenant(['inbox:read'])), pathParameters: { id } };
    const answer = coldStart(join(bundle.dir, 'index.mjs'), event);
    expect(answer.statusCode).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
  });
});

/** Imports every chunk of a bundle in a fresh Node, beside the bundle as deployed: what a first use loads loads. */
const importChunks = (dir: string): string => {
  const chunks = readdirSync(join(dir, 'chunks')).filter((file) => file.endsWith('.mjs'));
  const loads = chunks.map((file) => `await import(${JSON.stringify(pathToFileURL(join(dir, 'chunks', file)).href)});`).join('');
  return execFileSync(process.execPath, ['--input-type=module', '-e', `${loads} process.stdout.write('loaded');`], { encoding: 'utf8' });
};

describe('functions that load what only some of their calls need at first use (SQS, KMS, a bulk job kind, croner)', () => {
  it('keep it out of their cold starts, in chunks that load beside the bundle', async () => {
    const atStart = (name: keyof typeof HANDLERS, path: string) =>
      Object.keys(handlers[name].start.inputs).some((input) => input.includes(path));
    const carried = (name: keyof typeof HANDLERS, path: string) => handlers[name].inputs.some((input) => input.includes(path));
    expect(atStart('subscription', '@aws-sdk/client-sqs/')).toBe(false);
    expect(atStart('bulk', 'csv-parse/')).toBe(false);
    expect(atStart('bulk', 'shared/imports/')).toBe(false);
    expect(atStart('bulk', 'shared/exports/')).toBe(false);
    expect(atStart('bulk', 'shared/erasure/')).toBe(false);
    // The jobs' code is still there, loaded by the job that needs it.
    for (const path of ['shared/imports/run.ts', 'shared/exports/run.ts', 'shared/erasure/run.ts', 'shared/erasure/steps.ts'])
      expect(carried('bulk', path)).toBe(true);
    // croner: a route that checks a schedule's cron loads it before the first body naming one (below).
    for (const name of ['list-workflows', 'update'] as const) expect(atStart(name, 'croner/')).toBe(false);
    expect(carried('update', 'croner/')).toBe(true);
    // KMS seals and opens a channel's credentials: at the first seal or open, in a route and in the broadcast worker.
    for (const name of ['update-channel', 'send-broadcast'] as const) {
      expect(atStart(name, '@aws-sdk/client-kms/')).toBe(false);
      expect(carried(name, '@aws-sdk/client-kms/')).toBe(true);
    }
    // Asking for an erasure or an export records and queues it: the worker's steps, S3 and the CSV writer are not loaded.
    for (const path of ['shared/erasure/steps.ts', 'ical-generator/', '@aws-sdk/xml-builder/'])
      expect(atStart('erase-customer', path)).toBe(false);
    for (const path of ['shared/exports/run.ts', 'csv-stringify/', '@aws-sdk/xml-builder/'])
      expect(atStart('create-export', path)).toBe(false);
    const split = [
      'subscription',
      'bulk',
      'list-workflows',
      'update',
      'update-channel',
      'send-broadcast',
      'erase-customer',
      'create-export',
    ] as const;
    for (const bundle of split.map((name) => handlers[name])) {
      expect(bundle.lazyBytes).toBeGreaterThan(0);
      expect(importFresh(join(bundle.dir, 'index.mjs'))).toBe('loaded');
      expect(importChunks(bundle.dir)).toBe('loaded');
    }
  });

  it('reading an import or its errors loads neither S3 nor SQS: one file, nothing lazy', () => {
    for (const bundle of [handlers['get-import'], handlers['get-import-errors']]) {
      expect(bundle.lazyBytes).toBe(0);
      expect(existsSync(join(bundle.dir, 'chunks'))).toBe(false);
      expect(bundle.inputs.some((input) => input.includes('@aws-sdk/client-s3/') || input.includes('@aws-sdk/client-sqs/'))).toBe(false);
      expect(importFresh(join(bundle.dir, 'index.mjs'))).toBe('loaded');
    }
    // Asking for an import presigns its upload: S3 is in that route's bundle, loaded at first use.
    const requested = handlers['create-import'];
    expect(requested.inputs.some((input) => input.includes('@aws-sdk/client-s3/'))).toBe(true);
    expect(Object.keys(requested.start.inputs).some((input) => input.includes('@aws-sdk/client-s3/'))).toBe(false);
    expect(importChunks(requested.dir)).toBe('loaded');
  });
});

describe('a function that answers one view of a module of several', () => {
  it('carries that view, not its neighbours nor the entity schemas it never reads (`built` and `declare` are pure)', async () => {
    const bundle = handlers['list-conversations'];
    const ids = [...readFileSync(join(bundle.dir, 'index.mjs'), 'utf8').matchAll(/\bid:"([A-Z][A-Za-z]+)"/g)].map((m) => m[1]);
    // shared/views/inbox.ts also holds the message views, and the inbox repository's module the message entity.
    expect(ids).toContain('Conversation');
    expect(ids).toContain('Pagination');
    expect(ids).not.toContain('Message');
    expect(ids).not.toContain('PostedMessage');
    expect(ids).not.toContain('Customer');
    expect(importFresh(join(bundle.dir, 'index.mjs'))).toBe('loaded');
  });
});

describe("zod's JSON Schema code", () => {
  it('is in the cold start only of a function that calls z.toJSONSchema (whose answer equals source’s: below)', () => {
    const bytes = (name: 'list-tags' | 'list-event-types', file: string) =>
      handlers[name].start.inputs[`node_modules/zod/v4/core/${file}`] ?? 0;
    // Every route's schemas name it (zod's classic constructors); only the event catalog generates JSON Schema.
    expect(bytes('list-tags', 'to-json-schema.js')).toBe(0);
    expect(bytes('list-event-types', 'to-json-schema.js')).toBeGreaterThan(5_000);
    // What stays of the processors is zod's `aggregateChecks` (a string's `.format`, a number's `.minValue`).
    expect(bytes('list-tags', 'json-schema-processors.js')).toBeLessThan(3_000);
    expect(bytes('list-event-types', 'json-schema-processors.js')).toBeGreaterThan(8_000);
    expect(importFresh(join(handlers['list-tags'].dir, 'index.mjs'))).toBe('loaded');
  });
});

/** The ids of the schemas zod has registered (each view's `.meta({ id })`): the views a process has built so far. */
const BUILT_VIEWS = '[...(globalThis.__zod_globalRegistry?._idmap.keys() ?? [])]';

const COLD_START = 'cold start: ';

/** A cold start of a bundle in a fresh Node: the views built by its import, its answer to `event`, and the views built by then. */
const coldStart = (file: string, event: unknown, extraEnv: Record<string, string> = {}) => {
  const out = execFileSync(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `const { handler } = await import(${JSON.stringify(pathToFileURL(file).href)});
       const atImport = ${BUILT_VIEWS};
       const answer = await handler(${JSON.stringify(event)}, {});
       process.stdout.write('\\n' + ${JSON.stringify(COLD_START)} + JSON.stringify({ atImport, answer, afterAnswer: ${BUILT_VIEWS} }) + '\\n');`,
    ],
    { env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env, ...extraEnv }, encoding: 'utf8', timeout: 30_000 },
  );
  // Its own line: on Lambda's environment the function's metrics are on stdout too.
  const { atImport, answer, afterAnswer } = JSON.parse(
    out
      .split('\n')
      .find((line) => line.startsWith(COLD_START))!
      .slice(COLD_START.length),
  ) as {
    atImport: string[];
    answer: { statusCode: number; body: string };
    afterAnswer: string[];
  };
  return { atImport, afterAnswer, statusCode: answer.statusCode, body: JSON.parse(answer.body) };
};

const request = (method: string, path: string, { token, workspaceId }: { token: string; workspaceId: string }, body?: unknown) => ({
  rawPath: path,
  rawQueryString: '',
  requestContext: { requestId: 'r-1', http: { method, path, sourceIp: '127.0.0.1' } },
  headers: { authorization: `Bearer ${token}`, 'x-workspace-id': workspaceId, ...(body ? { 'content-type': 'application/json' } : {}) },
  ...(body ? { body: JSON.stringify(body), isBase64Encoded: false } : {}),
});

describe('functions whose schemas are built at their first use (`built`, as a bundle has it: shared/domain/built-lazily.ts)', () => {
  let eager: string;
  beforeAll(async () => {
    // The same function with `built` as source has it, to show what the import would otherwise build.
    eager = mkdtempSync(join(tmpdir(), 'parley-eager-'));
    await build({
      ...esbuildOptions,
      plugins: esbuildOptions.plugins!.filter((p) => p.name !== 'schemas-built-at-first-use'),
      entryPoints: { index: resolve(import.meta.dirname, '..', '..', HANDLERS['create-lead']) },
      outdir: eager,
      absWorkingDir: resolve(import.meta.dirname, '..', '..'),
      logLevel: 'error',
    });
  }, 300_000);
  afterAll(() => {
    if (eager) rmSync(eager, { recursive: true, force: true });
  });

  it('build no view at import; a request validates its body, reads and writes items through them, and answers as source does', async () => {
    const { createTenant } = await import('../support/tenants');
    const { createPipeline } = await import('../../shared/crm/pipelines');
    const { direct } = await import('../../shared/data/unit');
    const caller = await createTenant(['crm:read', 'crm:create']);
    const { tenant } = caller;
    const pipeline = await createPipeline(direct, tenant, { name: 'Sales' }, new Date());
    const index = join(handlers['create-lead'].dir, 'index.mjs');
    const path = '/api/v1/crm/leads';

    // Built as source builds them, the import builds the lead's views (and those they name); as deployed, none.
    const invalid = { title: '', pipelineId: 'nope', value: { amount: -1, currency: 'EURO' } };
    const eagerly = coldStart(join(eager, 'index.mjs'), request('POST', path, caller, invalid));
    expect(eagerly.atImport).toEqual(expect.arrayContaining(['Lead', 'Pipeline', 'Stage']));
    const refused = coldStart(index, request('POST', path, caller, invalid));
    expect(refused.atImport).toEqual([]);
    expect(refused.statusCode).toBe(422);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error.details.errors.length).toBeGreaterThanOrEqual(3);
    expect(refused.body).toEqual(eagerly.body);

    const created = coldStart(
      index,
      request('POST', path, caller, {
        title: 'Big deal',
        pipelineId: pipeline._id,
        value: { amount: 1200, currency: 'EUR' },
        attributes: { size: 'L' },
      }),
    );
    expect(created.atImport).toEqual([]);
    expect(created.statusCode).toBe(201);
    expect(created.body.data.lead).toMatchObject({
      title: 'Big deal',
      pipelineId: pipeline._id,
      stageId: pipeline.stages[0]!._id,
      value: { amount: 1200, currency: 'EUR' },
      attributes: { size: 'L' },
      status: 'open',
    });
    // Reading the pipeline parsed its item: the entity schema, and the views it extends, were built then.
    expect(created.afterAnswer).toContain('Pipeline');
    expect(created.afterAnswer).not.toContain('Conversation');
    const { getLead } = await import('../../shared/data/leads');
    expect((await getLead(tenant, created.body.data.lead._id))?.lead).toEqual(created.body.data.lead);
  });

  it('answer JSON schemas of views built at first use as source does (zod walks the stand-ins by their metadata)', async () => {
    const { createTenant } = await import('../support/tenants');
    const event = request('GET', '/api/v1/webhooks/event-types', await createTenant(['webhooks:read']));
    const bundled = coldStart(join(handlers['list-event-types'].dir, 'index.mjs'), event);
    expect(bundled.atImport).toEqual([]);
    expect({ status: bundled.statusCode, body: bundled.body }).toMatchObject({ status: 200 });
    const { handler } = await import('../../functions/http/webhooks/list-event-types');
    const source = (await handler(event as never, {} as never)) as { statusCode: number; body: string };
    expect(bundled.body).toEqual(JSON.parse(source.body));
    expect(JSON.stringify(bundled.body)).toContain('"description"');
  });
});

describe('a workflow route on Lambda (croner loaded before the first body that may name a cron)', () => {
  let index: string;
  beforeAll(() => {
    index = join(handlers['create-workflow'].dir, 'index.mjs');
  });

  it('checks a cron in a fresh Node as source does: a bad one is 422 (its key plainly or escaped), a good one creates', async () => {
    const { createTenant } = await import('../support/tenants');
    const caller = await createTenant(['workflows:write']);
    const lambda = { AWS_LAMBDA_FUNCTION_NAME: 'parley-test-create-workflow' };
    const path = '/api/v1/workflows';
    const nodes = [{ id: 'a', type: 'set_variable', config: { name: 'x', value: '1' } }];
    const body = (trigger: object) => ({ name: 'Nightly', trigger, nodes, edges: [] });
    const schedule = (cron: string) => body({ type: 'schedule', cron, timezone: 'Europe/Paris' });
    const bad = coldStart(index, request('POST', path, caller, schedule('61 * * * *')), lambda);
    expect(bad.statusCode).toBe(422);
    expect(bad.body.error.details.errors).toEqual([{ path: 'trigger.cron', message: 'Must be a 5-field cron expression' }]);
    const { handler } = await import('../../functions/http/workflows/create-workflow');
    const source = (await handler(request('POST', path, caller, schedule('61 * * * *')) as never, {} as never)) as { body: string };
    expect(bad.body).toEqual(JSON.parse(source.body));
    const escaped = {
      ...request('POST', path, caller, {}),
      body: JSON.stringify(schedule('61 * * * *')).replace('"cron"', '"\\u0063ron"'),
    };
    expect(escaped.body).not.toContain('"cron"');
    expect(coldStart(index, escaped, lambda).body).toEqual(bad.body);
    const created = coldStart(index, request('POST', path, caller, schedule('30 9 * * 1-5')), lambda);
    expect(created.statusCode).toBe(201);
    expect(created.body.data.workflow.trigger).toEqual({ type: 'schedule', cron: '30 9 * * 1-5', timezone: 'Europe/Paris' });
    // A body without a cron is validated without croner.
    expect(coldStart(index, request('POST', path, caller, body({ type: 'manual' })), lambda).statusCode).toBe(201);
  });
});
