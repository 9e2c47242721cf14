import { parleyArgv } from '../support/cli-bundle';
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { docExamples, parleyInvocations, shellCommands, withoutPlaceholders } from '../support/doc-examples';
import { useTestStack } from '../support/stack';

const root = resolve(import.meta.dirname, '..', '..');
const examples = docExamples(root);
const named = (lang: string, when: (args: string[]) => boolean) =>
  examples.filter((e) => e.lang === lang && when(e.args)).map((e) => [`${e.file}:${e.line}`, e] as const);

const runnable = named('sh', (args) => args.length === 0);
const checked = named('sh', (args) => args[0] === 'check');
const json = named('json', () => true);
const typescript = named('ts', () => true);

const scripts = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>);
const bins = new Set([
  'parley',
  ...(existsSync(join(root, 'node_modules', '.bin'))
    ? spawnSync('ls', [join(root, 'node_modules', '.bin')], { encoding: 'utf8' }).stdout.split('\n')
    : []),
]);

const cliHelp = new Map<string, string>();
/** The CLI's own help for a command: what it accepts, as a user would read it. */
const helpOf = (words: string[]): string => {
  const key = words.join(' ');
  if (!cliHelp.has(key)) {
    const res = spawnSync(process.execPath, parleyArgv(...words, '--help'), {
      cwd: root,
      encoding: 'utf8',
      timeout: 30_000,
    });
    cliHelp.set(key, res.status === 0 ? res.stdout : '');
  }
  return cliHelp.get(key)!;
};

describe('every example in the README and docs/', () => {
  it('is found, and every fenced block of code names a language the doc test knows', () => {
    expect(runnable.length + checked.length + json.length + typescript.length).toBeGreaterThan(0);
    const unknown = examples.filter((e) => !['sh', 'json', 'ts'].includes(e.lang)).map((e) => `${e.file}:${e.line} (${e.lang})`);
    expect(unknown).toEqual([]);
  });

  describe('shell examples that are checked, not run', () => {
    it.each(checked)('%s parses, and its npm scripts, binaries and CLI commands exist with their options', (_, example) => {
      const syntax = spawnSync('bash', ['-n'], { input: withoutPlaceholders(example.code), encoding: 'utf8' });
      expect(syntax.stderr).toBe('');
      for (const line of shellCommands(example.code)) {
        for (const [, script] of line.matchAll(/npm run (?:-s )?([\w:-]+)/g)) expect(scripts, line).toContain(script);
        for (const [, bin] of line.matchAll(/npx ([\w-]+)/g)) expect(bins.has(bin!), `${line}: no ${bin} binary`).toBe(true);
        for (const { words, options } of parleyInvocations(line)) {
          const help = helpOf(words);
          expect(help, `${line}: "parley ${words.join(' ')}" is not a command`).toMatch(/Usage: parley/);
          for (const option of options) expect(help, `${line}: "parley ${words.join(' ')}" has no ${option}`).toContain(option);
        }
      }
    });
  });

  describe('examples that run against the local stack', () => {
    const local = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });

    it.each(runnable)('%s runs, and every answer it prints is a success', async (_, example) => {
      const { token, workspaceId } = await local.tenant();
      const base = local.stack.baseUrl;
      // The example's own placeholders (`TOKEN=sk_test_…`) give way to a real token and workspace.
      const code = example.code
        .split('\n')
        .filter((l) => !/^(TOKEN|WS|API)=/.test(l))
        .join('\n')
        .replaceAll('http://127.0.0.1:3000', base);
      const script = `set -euo pipefail\ncurl() { command curl --max-time 10 "$@"; echo; }\n${code}`;
      // Asynchronously: the stack answering the example runs in this process.
      const res = await promisify(execFile)('bash', ['-c', script], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, API: `${base}/api/v1`, TOKEN: token, WS: workspaceId },
      });
      expect(res.stderr).toBe('');
      const answers = res.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l));
      expect(answers.length).toBeGreaterThan(0);
      for (const answer of answers) expect(answer, JSON.stringify(answer)).toMatchObject({ success: true });
    });

    it.each(json)('%s is JSON, and the stack accepts it where it names a route', async (_, example) => {
      const body = JSON.parse(example.code);
      if (example.args.length === 0) return;
      const [method, path] = example.args;
      const { api } = await local.tenant();
      const res = await api.call(method!, path!, body);
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(200);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    });
  });

  describe('TypeScript examples', () => {
    it.each(typescript.filter(([, e]) => e.args.length > 0))('%s is the file it names, verbatim', (_, example) => {
      expect(readFileSync(join(root, example.args[0]!), 'utf8').trim()).toBe(example.code.trim());
    });

    it('the others type-check as written', () => {
      const snippets = typescript.filter(([, e]) => e.args.length === 0);
      const dir = join(root, '.build', 'doc-examples');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      // A snippet is written as if it stood at the repository's root.
      const files = snippets.map(([, e], i) => {
        const file = join(dir, `example-${i}.ts`);
        writeFileSync(file, `// ${e.file}:${e.line}\n${e.code.replace(/from '\.\//g, "from '../../")}\nexport {};\n`);
        return file;
      });
      const config = ts.getParsedCommandLineOfConfigFile(
        join(root, 'tsconfig.json'),
        {},
        { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} },
      )!;
      // `@parley/client` is its workspace's sources, as an install of the built package would type it.
      const client = (entry: string) => [join(root, 'packages', 'client', 'src', `${entry}.ts`)];
      const paths = { '@parley/client': client('index'), '@parley/client/webhooks': client('webhooks') };
      const program = ts.createProgram(files, { ...config.options, noUnusedLocals: false, paths });
      const errors = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file && files.includes(resolve(d.file.fileName)))
        .map((d) => `${d.file!.text.split('\n')[0]} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(errors).toEqual([]);
    }, 120_000);
  });
});
