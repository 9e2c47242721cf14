/**
 * The layering rules `npm test` enforces (`npm run deps` runs them alone).
 *
 *   functions/  thin adapters: parse, call the area's service, shape the output; wiring.ts + wiring/ (pure data about them)
 *   infra/      the CDK app, the grant table, the local runtime and build tooling: above everything else
 *   shared/<area>, shared/http       services (one folder per area) and the HTTP chain
 *   shared/data                      repositories: keys, items, transactions
 *   shared/events                    event catalog, envelope and payload bytes
 *   shared/views                     resource views (zod): what routes answer and events carry
 *   shared/domain                    pure rules: imports only itself, shared/ids, zod and node:crypto
 *   infra/local                      the local runtime: nothing in functions/ or shared/ may lean on it
 *   packages/client                  the typed client package (@parley/client): self-contained, used by no Lambda
 *   packages/cli                     the parley CLI: acts through the area services, never the repositories
 *   packages/dashboard               the dashboard (browser): an API client, through packages/client only
 *
 * Type-only imports count: a circle of types is still a circle.
 */
/** The folders under shared/ that repositories may import: everything else there is a service above them. */
const BELOW_DATA = ['domain', 'events', 'views', 'aws', 'observability'];

/**
 * The data layer's primitives, which every repository (and service) may use: the table and its key parts
 * (table, keys, registry/, entity-keys), item decoding (codec), writes and transactions (transact, unit, versioned,
 * retry, outbox), reads (query, batch-get), the shared indexes an entity keeps beside itself (counters, lists,
 * tag-links), the checks a write makes on the records it refers to (references) and the timers' drain loop.
 * None of them decides anything or imports a repository.
 */
const DATA_PRIMITIVES = [
  '^shared/data/(table|keys|entity-keys|codec|transact|unit|versioned|retry|outbox|query|batch-get|counters|lists|tag-links|references|timers|write-packing)\\.ts$',
  '^shared/data/registry/',
];

/** The unit of work an entry point chooses: the data primitive the packages and every function but a route's may import. */
const UNIT = '^shared/data/unit\\.ts$';

/**
 * The worker modules that are entry points of their own (a queue's consumer, an erasure's or an import's steps): they
 * choose the `direct` unit for the services they call, as functions/ does for the schedules and event consumers.
 */
const WORKER_ENTRIES = [
  '^shared/(broadcasts/worker|channels/outgoing|erasure/steps|imports/rows|webhooks/(deliver|attempt-tallies)|workflows/(effects|runner))\\.ts$',
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other (directly or round a loop) cannot be understood or moved one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-imports-only-domain',
      severity: 'error',
      comment: 'shared/domain is pure: only the domain itself, shared/ids, zod and croner (no AWS SDK, no config, no http, no data).',
      from: { path: '^shared/domain/' },
      to: {
        dependencyTypesNot: ['core'],
        pathNot: ['^shared/domain/', '^shared/ids\\.ts$', '(^|/)node_modules/zod/', '(^|/)node_modules/croner/'],
      },
    },
    {
      name: 'views-are-schemas',
      severity: 'error',
      comment:
        'A resource view describes a domain entity: it reads only the domain, shared/ids and zod, so routes and events can both use it.',
      from: { path: '^shared/views/' },
      to: { pathNot: ['^shared/(views|domain)/', '^shared/ids\\.ts$', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'domain-uses-no-node-io',
      severity: 'error',
      comment: 'Of Node itself the domain uses only crypto (hashes, HMACs, random ids); no fs, net, http or process.',
      from: { path: '^shared/domain/' },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?crypto$' },
    },
    {
      name: 'keys-only-in-data',
      severity: 'error',
      comment:
        'A key is built in shared/data alone: the key parts (the registry, K) and the key helpers are out of reach of services, handlers, the HTTP chain, ' +
        'the packages and infra (the grants and the fault points take what they match from shared/data/key-conditions.ts). Only the data-model ' +
        'page generator reads the declarations, to render them.',
      from: { path: '^(functions|shared|infra|packages)/', pathNot: ['^shared/data/', '^infra/docs/data-model\\.ts$'] },
      to: { path: ['^shared/data/keys\\.ts$', '^shared/data/registry/'] },
    },
    {
      name: 'functions-are-thin-adapters',
      severity: 'error',
      comment: 'A handler reaches AWS only through shared/ (repositories, services): no SDK, no client singletons, no config.',
      from: { path: '^functions/' },
      to: { path: ['(^|/)node_modules/@aws-sdk/', '^shared/aws/', '^shared/config\\.ts$'] },
    },
    {
      name: 'no-local-runtime-in-deployed-code',
      severity: 'error',
      comment: 'infra/local is the laptop stand-in for AWS; deployed code must not know it exists.',
      from: { path: '^(functions|shared)/' },
      to: { path: '^infra/local/' },
    },
    {
      name: 'no-client-in-deployed-code',
      severity: 'error',
      comment: 'The typed client (packages/client, with openapi-fetch) is for API consumers; no Lambda bundle may carry it.',
      from: { path: '^(functions|shared)/' },
      to: { path: ['^packages/client/', '(^|/)node_modules/openapi-fetch/'] },
    },
    {
      name: 'client-is-self-contained',
      severity: 'error',
      comment: 'packages/client is packed and published alone: it may import only itself, Node and its own dependencies.',
      from: { path: '^packages/client/' },
      to: { dependencyTypesNot: ['core', 'npm', 'npm-dev'], pathNot: '^packages/client/' },
    },
    {
      name: 'functions-below-infra',
      severity: 'error',
      comment:
        'The handlers and their wiring (functions/wiring.ts: pure data about them) are what the CDK app deploys and the local runtime runs: ' +
        'they import neither, nor the build tooling (the OpenAPI generator, the site) beside them in infra/.',
      from: { path: '^functions/' },
      to: { path: '^infra/' },
    },
    {
      name: 'packages-use-services',
      severity: 'error',
      comment:
        'The packages (the parley CLI) act through the area services (shared/auth, shared/workspace…), which decide, ' +
        'never on the repositories beneath them: a command cannot skip what a service checks.',
      from: { path: '^packages/' },
      to: { path: '^shared/data/', pathNot: UNIT },
    },
    {
      name: 'dashboard-is-an-api-client',
      severity: 'error',
      comment:
        'The dashboard runs in the browser and knows the API as any client does, through packages/client and its generated schema: ' +
        "none of the server's code (shared/domain included), whose Node modules and rules would ride into the browser bundle.",
      from: { path: '^packages/dashboard/' },
      to: { path: '^(shared|functions|infra)/' },
    },
    {
      name: 'shared-is-below-functions-and-infra',
      severity: 'error',
      comment: 'shared/ is the library the handlers and the infrastructure use, never the other way round.',
      from: { path: '^shared/' },
      to: { path: '^(functions|infra)/' },
    },
    {
      name: 'events-below-data',
      severity: 'error',
      comment: 'Envelopes and payloads are plain data; the data layer builds outbox items from them, not the reverse.',
      from: { path: '^shared/events/' },
      to: { path: '^shared/(data|http|webhooks|aws)/' },
    },
    {
      name: 'data-below-services',
      severity: 'error',
      comment:
        'Repositories know the table, not the services that call them: shared/data imports only the layers below it, ' +
        'so every service folder (webhooks, workflows, channels, broadcasts, ai, analytics, scheduling, http, secrets and any new one) is out of reach.',
      from: { path: '^shared/data/' },
      to: { path: '^shared/', pathNot: [`^shared/(data|${BELOW_DATA.join('|')})/`, '^shared/(ids|config|log|packed-text)\\.ts$'] },
    },
    {
      name: 'repository-imports-no-other-repository',
      severity: 'error',
      comment:
        'A repository stores its own entity: it imports the data primitives and the files of its own entity (named by the same ' +
        'first word: leads and leads-list, tags and tags-tagging), never another repository. What spans entities (a merge, a ' +
        "tagging, a lead's activity) is composed by a service.",
      from: { path: '^shared/data/([a-z]+)[^/]*\\.ts$' },
      to: { path: '^shared/data/', pathNot: [...DATA_PRIMITIVES, '^shared/data/$1[^/]*\\.ts$'] },
    },
    {
      name: 'workflows-use-other-areas-services',
      severity: 'error',
      comment:
        "A workflow step changes another area's records through that area's service (shared/inbox, shared/crm, shared/tags…), " +
        "so the area's rules apply: the workflow engine reaches only its own repositories (workflow*) and the data primitives.",
      from: { path: '^shared/workflows/' },
      to: { path: '^shared/data/', pathNot: [...DATA_PRIMITIVES, '^shared/data/workflow[^/]*\\.ts$'] },
    },
    {
      name: 'repositories-report-refusals',
      severity: 'error',
      comment:
        "A repository says what stopped it in the data's own terms (a Refused, a Missing record: shared/domain/refusal.ts); " +
        'which contract error that answers (404, 409, a 422 naming a field) is decided above it.',
      from: { path: '^shared/data/' },
      to: { path: '^shared/domain/errors\\.ts$' },
    },
    {
      name: 'handlers-call-services',
      severity: 'error',
      comment:
        'Every area runs functions/ → its service in shared/<area>/ → its repositories in shared/data/: ' +
        'a handler parses and shapes, the service decides, so no handler reaches a repository itself.',
      from: { path: '^functions/' },
      to: { path: '^shared/data/', pathNot: UNIT },
    },
    {
      name: 'routes-write-through-their-unit',
      severity: 'error',
      comment:
        "A route's handler writes through the unit its context carries (ctx.unit: held under an Idempotency-Key), " +
        'and a service through the unit it is given: neither picks one (docs/contributing/architecture.md). Only the ' +
        'route factory, the entry points and the worker modules choose a unit; services import its type alone.',
      from: { path: '^(functions/http|shared)/', pathNot: ['^shared/(data|http)/', ...WORKER_ENTRIES] },
      to: { path: UNIT, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-folder-cycles',
      severity: 'error',
      comment:
        'Folders that import each other (directly or round a loop) are one layer in two places: move what both need down into one of them.',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-dev-dependencies-in-deployed-code',
      severity: 'error',
      comment: 'Handlers are bundled from dependencies only; a devDependency would be missing (types excepted).',
      from: { path: '^(functions|shared)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import that resolves to nothing is a typo or a missing dependency.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    metrics: true,
    exclude: { path: ['^cdk\\.out/', '^\\.data/', '^packages/client/dist/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
