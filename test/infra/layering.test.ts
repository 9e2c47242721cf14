import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
};

const root = mkdtempSync(join(tmpdir(), 'parley-layering-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * Writes a small tree of modules (path → the relative imports it makes; `type <path>` imports a type alone) and
 * cruises it with the project's rules.
 */
async function violations(name: string, tree: Record<string, string[]>): Promise<string[]> {
  const base = join(root, name);
  for (const [path, imports] of Object.entries(tree)) {
    mkdirSync(dirname(join(base, path)), { recursive: true });
    const line = (i: string) => (i.startsWith('type ') ? `import type { x } from '${i.slice(5)}';` : `import '${i}';`);
    writeFileSync(join(base, path), `${imports.map(line).join('\n')}\nexport const x = 1;\n`);
  }
  const tops = [...new Set(Object.keys(tree).map((path) => path.split('/')[0]!))];
  const { output } = await cruise(tops, {
    baseDir: base,
    metrics: true,
    validate: true,
    tsPreCompilationDeps: true,
    ruleSet: { forbidden: config.forbidden },
  });
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

describe('layering rules', () => {
  it('a repository may not import a service folder, including one made after the rule was written', async () => {
    const found = await violations('data-up', {
      'shared/data/a.ts': ['../brand-new/service', '../channels/send', '../domain/rule'],
      'shared/brand-new/service.ts': [],
      'shared/channels/send.ts': [],
      'shared/domain/rule.ts': [],
    });
    expect(found.sort()).toEqual([
      'data-below-services: shared/data/a.ts → shared/brand-new/service.ts',
      'data-below-services: shared/data/a.ts → shared/channels/send.ts',
    ]);
  });

  it('a repository reports a refusal or a missing record, never a contract error', async () => {
    const found = await violations('data-errors', {
      'shared/data/a.ts': ['../domain/errors', '../domain/refusal'],
      'shared/domain/errors.ts': [],
      'shared/domain/refusal.ts': [],
    });
    expect(found).toEqual(['repositories-report-refusals: shared/data/a.ts → shared/domain/errors.ts']);
  });

  it('a repository imports the data primitives and its own entity’s files, never another repository', async () => {
    const found = await violations('data-sideways', {
      'shared/data/leads.ts': ['./transact', './references', './registry/registry', './pipelines', './activities'],
      'shared/data/leads-list.ts': ['./leads', './lists'],
      'shared/data/member-removal.ts': ['./members', './conversations'],
      'shared/data/references.ts': ['./entity-keys', './members'],
      'shared/data/transact.ts': [],
      'shared/data/lists.ts': [],
      'shared/data/entity-keys.ts': [],
      'shared/data/registry/registry.ts': [],
      'shared/data/pipelines.ts': [],
      'shared/data/activities.ts': [],
      'shared/data/members.ts': [],
      'shared/data/conversations.ts': [],
    });
    expect(found.sort()).toEqual([
      'repository-imports-no-other-repository: shared/data/leads.ts → shared/data/activities.ts',
      'repository-imports-no-other-repository: shared/data/leads.ts → shared/data/pipelines.ts',
      'repository-imports-no-other-repository: shared/data/member-removal.ts → shared/data/conversations.ts',
      'repository-imports-no-other-repository: shared/data/references.ts → shared/data/members.ts',
    ]);
  });

  it('key parts are out of reach outside shared/data: infra takes what it matches from the data layer, only the data-model page reads the declarations', async () => {
    const found = await violations('keys-outside-data', {
      'shared/channels/incoming.ts': ['../data/registry/registry', '../data/customers'],
      'infra/grants.ts': ['../shared/data/registry/registry', '../shared/data/key-conditions'],
      'infra/local/faults.ts': ['../../shared/data/registry/imports', '../../shared/data/key-conditions'],
      'infra/docs/data-model.ts': ['../../shared/data/registry/entities'],
      'packages/cli/keys.ts': ['../../shared/data/keys'],
      'shared/data/customers.ts': ['./registry/registry', './keys'],
      'shared/data/key-conditions.ts': ['./registry/imports'],
      'shared/data/keys.ts': [],
      'shared/data/registry/registry.ts': [],
      'shared/data/registry/imports.ts': [],
      'shared/data/registry/entities.ts': [],
    });
    expect(found.filter((v) => v.startsWith('keys-only-in-data')).sort()).toEqual([
      'keys-only-in-data: infra/grants.ts → shared/data/registry/registry.ts',
      'keys-only-in-data: infra/local/faults.ts → shared/data/registry/imports.ts',
      'keys-only-in-data: packages/cli/keys.ts → shared/data/keys.ts',
      'keys-only-in-data: shared/channels/incoming.ts → shared/data/registry/registry.ts',
    ]);
  });

  it('the workflow engine changes other areas through their services, not their repositories', async () => {
    const found = await violations('workflows-around', {
      'shared/workflows/effects.ts': ['../data/tasks', '../crm/tasks', '../data/workflow-executions', '../data/transact'],
      'shared/crm/tasks.ts': ['../data/tasks'],
      'shared/data/tasks.ts': [],
      'shared/data/workflow-executions.ts': [],
      'shared/data/transact.ts': [],
    });
    expect(found).toEqual(['workflows-use-other-areas-services: shared/workflows/effects.ts → shared/data/tasks.ts']);
  });

  it('a handler reaches the repositories only through its area service', async () => {
    const found = await violations('handler-data', {
      'functions/http/crm/get-lead.ts': ['../../../shared/data/leads', '../../../shared/crm/leads'],
      'functions/schedules/remind.ts': ['../../shared/data/timers'],
      'shared/crm/leads.ts': ['../data/leads'],
      'shared/data/leads.ts': [],
      'shared/data/timers.ts': [],
    });
    expect(found.sort()).toEqual([
      'handlers-call-services: functions/http/crm/get-lead.ts → shared/data/leads.ts',
      'handlers-call-services: functions/schedules/remind.ts → shared/data/timers.ts',
    ]);
  });

  it('only entry points choose a unit of work: services and route handlers take the one they are given', async () => {
    const found = await violations('unit-of-work', {
      'functions/http/tags/create-tag.ts': ['../../../shared/data/unit', '../../../shared/tags/catalogue'],
      'functions/schedules/sweep.ts': ['../../shared/data/unit', '../../shared/tags/catalogue'],
      'shared/tags/catalogue.ts': ['type ../data/unit'],
      'shared/crm/leads.ts': ['../data/unit'],
      'shared/http/route.ts': ['../data/unit'],
      'shared/workflows/runner.ts': ['../data/unit'],
      'shared/data/unit.ts': [],
    });
    expect(found.sort()).toEqual([
      'routes-write-through-their-unit: functions/http/tags/create-tag.ts → shared/data/unit.ts',
      'routes-write-through-their-unit: shared/crm/leads.ts → shared/data/unit.ts',
    ]);
  });

  it('folders that import each other are a cycle, though no module is in one', async () => {
    const found = await violations('folder-loop', {
      'shared/one/a.ts': ['../two/b'],
      'shared/two/c.ts': ['../three/d'],
      'shared/three/e.ts': ['../one/f'],
      'shared/two/b.ts': [],
      'shared/three/d.ts': [],
      'shared/one/f.ts': [],
    });
    expect(found.filter((v) => v.startsWith('no-circular'))).toEqual([]);
    expect(found.filter((v) => v.startsWith('no-folder-cycles')).sort()).toEqual([
      'no-folder-cycles: shared/one → shared/two',
      'no-folder-cycles: shared/three → shared/one',
      'no-folder-cycles: shared/two → shared/three',
    ]);
  });

  it('a handler and the wiring never import the infrastructure that deploys and runs them', async () => {
    const found = await violations('functions-infra', {
      'functions/http/not-found.ts': ['../wiring', '../../infra/wiring'],
      'functions/wiring.ts': ['../infra/docs/openapi'],
      'infra/wiring.ts': [],
      'infra/docs/openapi.ts': [],
    });
    expect(found.sort()).toEqual([
      'functions-below-infra: functions/http/not-found.ts → infra/wiring.ts',
      'functions-below-infra: functions/wiring.ts → infra/docs/openapi.ts',
    ]);
  });

  it('the CLI acts through a service, never a repository', async () => {
    const found = await violations('cli-data', {
      'packages/cli/parley.ts': ['../../shared/data/tokens', '../../shared/auth/operator'],
      'shared/auth/operator.ts': ['../data/tokens'],
      'shared/data/tokens.ts': [],
    });
    expect(found).toEqual(['packages-use-services: packages/cli/parley.ts → shared/data/tokens.ts']);
  });

  it('the dashboard reaches the API through the client, never the server code', async () => {
    const found = await violations('dashboard', {
      'packages/dashboard/tokens.ts': ['../../shared/domain/auth/scopes', '../client/src/client', './dom'],
      'packages/dashboard/dom.ts': [],
      'packages/client/src/client.ts': [],
      'shared/domain/auth/scopes.ts': [],
    });
    expect(found).toEqual(['dashboard-is-an-api-client: packages/dashboard/tokens.ts → shared/domain/auth/scopes.ts']);
  });

  it('folders that import in one direction pass', async () => {
    const found = await violations('folder-line', {
      'shared/one/a.ts': ['../two/b'],
      'shared/two/b.ts': ['../three/d'],
      'shared/three/d.ts': [],
    });
    expect(found).toEqual([]);
  });
});
