import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/** Whether importing the tracing module, in a fresh process with `env`, loads the X-Ray SDK. */
const loadsXRay = (env: Record<string, string>): boolean => {
  const script = `
    import { createRequire } from 'node:module';
    await import('./shared/observability/tracing.ts');
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    process.stdout.write(String(loaded.some((path) => path.includes('/aws-xray-sdk-core/'))));
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
  });
  return out === 'true';
};

describe('tracing', () => {
  // The X-Ray SDK tracks every promise through async hooks once imported: a tenth of the local runtime's CPU.
  it('loads the X-Ray SDK inside Lambda only', () => {
    expect(loadsXRay({ AWS_LAMBDA_FUNCTION_NAME: 'parley-dev-http-inbox-get-conversation' })).toBe(true);
    expect(loadsXRay({})).toBe(false);
  });
});
