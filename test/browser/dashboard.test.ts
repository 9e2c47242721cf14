import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page, Route, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../shared/domain/auth/scopes';
import { FAST_ATTEMPTS } from '../../shared/domain/webhooks/schedule';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { inFreshRateWindow } from '../support/rate-window';
import { makeFactories } from '../support/resource-factories';
import { launchChromium } from '../support/chromium';
import { writeCustomers } from '../support/realtime';
import { useTestStack } from '../support/stack';
import { eventually, standardVerifier } from '../support/webhooks';

/**
 * The dashboard in a real headless Chromium (Debian's, driven by playwright-core) against the real local
 * stack. Every request the pages make is watched: anything leaving 127.0.0.1 fails the test (offline).
 * Screenshots of each page go to `.build/test-output/dashboard/` (`npm run screenshots` copies the README's).
 */
const SHOTS = resolve('.build/test-output/dashboard');
const HOOKS = '/api/v1/integrations/webhooks';
const WORKFLOWS = '/api/v1/workflows';
const PHONE = { width: 390, height: 844 };

const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Answers as each test sets it. */
let hook: Receiver;
/** Always 500. */
let failing: Receiver;
let admin: Awaited<ReturnType<typeof env.tenant>>;
const external: string[] = [];

const dashboard = (hash = '') => `${env.stack.baseUrl}/dashboard${hash}`;
const shot = (name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

const signIn = async (token: string) => {
  await page.goto(dashboard());
  await page.fill('input[name=token]', token);
  await page.click('button[type=submit]');
};

/** The lines an element's text is laid out on (a word broken mid-way takes two). */
const linesOf = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set(
      Array.from(range.getClientRects())
        .filter((r) => r.width > 0)
        .map((r) => Math.round(r.top)),
    ).size;
  });

/** The page fits the width it is shown at: nothing scrolls sideways. */
const fitsWidth = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  hook = await startReceiver();
  failing = await startReceiver(() => ({ status: 500 }));
  admin = await env.tenant();
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.stack.baseUrl });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    external.push(url.href);
    return route.abort();
  });
  page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await hook?.stop();
  await failing?.stop();
  expect(external).toEqual([]);
});

describe('signing in', () => {
  it('shows no nav and no Sign out while signed out', async () => {
    await page.goto(dashboard());
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.locator('#nav').isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);
    await shot('signin');
  });

  it('signs in, and the header names the workspace and the test mode', async () => {
    const listings: string[] = [];
    const count = (request: { url(): string }) => {
      if (new URL(request.url()).pathname === '/api/v1/auth/tokens') listings.push(request.url());
    };
    page.on('request', count);
    await signIn(admin.token);
    await page.getByRole('heading', { name: 'API Tokens' }).waitFor();
    expect(await page.locator('#workspace').textContent()).toBe('Test workspace');
    expect(await page.locator('#mode').textContent()).toBe('Test mode');
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);
    // The first page renders once: a second render, finishing late, replaced the form a user had begun to fill.
    await page.waitForTimeout(1000);
    page.off('request', count);
    expect(listings).toHaveLength(1);
  });
});

describe('API tokens', () => {
  let secret = '';

  it('offers every scope the API knows, in its order', async () => {
    const offered = await page.locator('input[name=scope]').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('value')));
    expect(offered).toEqual([...SCOPES]);
  });

  it('creates a token and shows its value once, copyable', async () => {
    await page.fill('input[name=name]', 'browser-made');
    await page.check('input[value="tags:read"]');
    await page.click('button:has-text("Create token")');
    secret = (await page.locator('#new-token-value').textContent({ timeout: 20_000 }))!;
    expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{48}$/);
    await page.click('button:has-text("Copy")');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await shot('tokens');
    // The API answers it at once; the page never shows it again.
    const works = await fetch(`${env.stack.baseUrl}/api/v1/tags`, {
      headers: { authorization: `Bearer ${secret}`, 'x-workspace-id': admin.workspaceId },
    });
    expect(works.status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: 'browser-made' }).waitFor();
    expect(await page.content()).not.toContain(secret.slice(16));
  });

  it('revokes it, and the API refuses it from then on', async () => {
    const row = page.getByRole('row').filter({ hasText: 'browser-made' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked').waitFor({ timeout: 20_000 });
    // A table narrowed by a long list of scopes still breaks no word: "Revoke" and "revoked" each on one line.
    await admin.api.post('/api/v1/auth/tokens', { name: 'every scope', scopes: SCOPES.filter((x) => x !== 'admin:all') });
    for (const width of [1280, 900, 700]) {
      await page.setViewportSize({ width, height: 900 });
      await page.reload();
      const revoked = page.getByRole('row').filter({ hasText: 'browser-made' }).getByText('revoked', { exact: true });
      await revoked.waitFor();
      expect(await linesOf(revoked), `revoked at ${width} px`).toBe(1);
      expect(await linesOf(page.getByRole('button', { name: 'Revoke' }).first()), `Revoke at ${width} px`).toBe(1);
      expect(await fitsWidth()).toBe(true);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    const refused = await fetch(`${env.stack.baseUrl}/api/v1/tags`, {
      headers: { authorization: `Bearer ${secret}`, 'x-workspace-id': admin.workspaceId },
    });
    expect(refused.status).toBe(401);
  });
});

describe('webhook endpoints', () => {
  let id = '';
  const sub = async () => (await admin.api.get(`${HOOKS}/${id}`)).body.data.subscription;
  const deliveries = async () =>
    (await admin.api.get(`${HOOKS}/${id}/deliveries`)).body.data.deliveries as { deliveryId: string; status: string }[];

  it('shows the empty list, then adds an endpoint and shows its signing secret once', async () => {
    await page.goto(dashboard('#/webhooks'));
    await page.getByText('No endpoints yet.').waitFor();
    await page.fill('input[name=url]', hook.url);
    await page.fill('input[name=events]', 'inbox.*');
    await page.click('button:has-text("Add endpoint")');
    const secret = (await page.locator('#new-secret-value').textContent({ timeout: 20_000 }))!;
    expect(secret.length).toBeGreaterThanOrEqual(16);
    const [listed] = (await admin.api.get(HOOKS)).body.data.subscriptions;
    expect(listed).toMatchObject({ url: hook.url, events: ['inbox.*'], active: true });
    id = listed._id;
    await page.getByRole('link', { name: hook.url }).waitFor();
    await shot('endpoints');
    await page.reload();
    await page.getByRole('link', { name: hook.url }).waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('sends a test event to a 410 endpoint and follows it: deactivated, without a reload, with only what can work offered', async () => {
    hook.setReply(() => ({ status: 410 }));
    await page.getByRole('link', { name: hook.url }).click();
    await page.getByText('No deliveries yet.').waitFor();
    // A mark that a reload would wipe.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('button', { name: 'Send test event' }).click();
    // Within the delivery's own time: its first attempt is answered 410, which ends it and deactivates the endpoint.
    const state = page.locator('#health .status');
    await page.locator('#health .status-deactivated').waitFor({ timeout: 15_000 });
    expect(await state.textContent()).toBe('deactivated: the endpoint answered 410 Gone');
    expect((await sub()).deactivationReason).toBe('gone_410');
    const health = page.locator('#health');
    await health.getByText('0% of 1 finished (latest 1)').waitFor();
    expect(await health.textContent()).not.toContain('Failures in a row');
    expect(await page.locator('#sent').textContent()).toBe('Failed: the endpoint answered 410, so the endpoint is now deactivated.');
    const row = page.locator('tr[data-delivery]').filter({ hasText: 'webhook.ping' });
    await row.getByText('failed').waitFor();
    expect(await row.locator('td[data-label=HTTP]').textContent()).toBe('410');
    // What cannot work is not offered; what can is.
    expect(await page.getByRole('button', { name: 'Send test event' }).isVisible()).toBe(false);
    expect(await row.getByRole('button', { name: 'Retry' }).isVisible()).toBe(false);
    expect(await page.getByRole('button', { name: 'Recover failed deliveries' }).isDisabled()).toBe(true);
    await page.locator('#recover-off').getByText('Reactivate the endpoint').waitFor();
    expect(await page.getByRole('button', { name: 'Reactivate' }).isVisible()).toBe(true);
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
  });

  it('says a refused action beside its control, in words: sent to an endpoint deactivated since the page loaded', async () => {
    hook.setReply(() => ({ status: 204 }));
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.getByRole('button', { name: 'Send test event' }).waitFor();
    expect((await sub()).active).toBe(true);
    // Disabled elsewhere (the API, another tab) just now: the page does not know it yet.
    expect((await admin.api.patch(`${HOOKS}/${id}`, { active: false })).status).toBe(200);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const said = page.locator('#health .control').filter({ hasText: 'Not sent' }).locator('.error');
    await said.waitFor();
    expect(await said.textContent()).toBe('Not sent: the endpoint is deactivated. Reactivate it first.');
    expect(await said.textContent()).not.toMatch(/PATCH|active|409/);
    // Its control and the error share one place; the page now offers the way back instead.
    expect(await said.locator('xpath=..').getByRole('button', { name: 'Send test event', includeHidden: true }).count()).toBe(1);
    await page.locator('#health .status-disabled').waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByRole('button', { name: 'Send test event' }).waitFor();
    expect(await said.count()).toBe(0);
  });

  it('reactivated, opens the attempts as labelled cards, retries, and the row and the health follow the new attempt', async () => {
    // Active again, but its latest finished delivery failed: not shown as healthy.
    await page.locator('#health .status-recent-failures').waitFor();
    expect(await page.locator('#health .status').textContent()).toBe('active: 1 of its latest deliveries failed');
    expect((await sub()).active).toBe(true);
    const row = page.locator('tr[data-delivery]').first();
    await row.getByText('failed').waitFor();
    await row.getByRole('button', { name: '1 attempt' }).click();
    const attempt = page.locator('li.attempt').first();
    await attempt.getByText('HTTP status').waitFor();
    expect(await attempt.locator('dt').allTextContents()).toEqual([
      'Attempt',
      'Result',
      'HTTP status',
      'Latency',
      'Failure',
      'At',
      'Request headers',
      'Request body',
      'Response body',
    ]);
    expect(await attempt.textContent()).toContain('410');
    expect(await attempt.locator('dt:has-text("Request body") + dd').textContent()).toContain('webhook.ping');
    expect(await attempt.locator('dt:has-text("Request headers") + dd').textContent()).toContain('webhook-id');
    await row.getByRole('button', { name: 'Retry' }).click();
    // No reload: the row itself moves from the stale 410 to the new attempt's answer.
    const after = page.locator('tr[data-delivery]').first();
    await after.getByText('success').waitFor({ timeout: 20_000 });
    expect(await after.locator('td[data-label=HTTP]').textContent()).toBe('204');
    expect(await after.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    expect(await after.textContent()).toContain('2 attempts');
    await page.locator('#health .status-healthy').waitFor();
    await page.locator('#health').getByText('100% of 1 finished (latest 1)').waitFor();
    await after.getByRole('button', { name: '2 attempts' }).click();
    await page.locator('li.attempt').nth(1).getByText('204').first().waitFor();
    expect((await deliveries())[0]!.status).toBe('success');
    // The README's picture: a healthy endpoint whose delivery failed with a 410 once and then succeeded.
    await shot('endpoint');
  });

  it('edits its url and events', async () => {
    await page.fill('input[name=url]', `${hook.url}?v=2`);
    await page.fill('input[name=events]', 'inbox.*, customer.contact.created');
    await page.click('button:has-text("Save")');
    await page.locator('h1').getByText('?v=2').waitFor();
    expect(await sub()).toMatchObject({ url: `${hook.url}?v=2`, events: ['inbox.*', 'customer.contact.created'] });
  });

  it('disables it by hand and says so', async () => {
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.locator('#health .status-disabled').waitFor();
    expect(await sub()).toMatchObject({ active: false, deactivationReason: 'manual' });
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.locator('#health .status-healthy').waitFor();
  });

  it('rotates its secret: the new one is shown once, and deliveries carry both signatures during the overlap', async () => {
    await page.selectOption('select[name=overlapSeconds]', '3600');
    await page.click('button:has-text("Rotate secret")');
    const secret = (await page.locator('#new-secret-value').textContent({ timeout: 20_000 }))!;
    expect(secret).toMatch(/^whsec_/);
    await page.locator('#overlap').getByText('The replaced secret also signs until').waitFor();
    await shot('rotate');
    const before = hook.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const [ping] = (await hook.waitFor(before + 1)).slice(before);
    expect(String(ping!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(standardVerifier(secret).verify(ping!.body, ping!.headers as Record<string, string>)).toMatchObject({
      data: { subscription: { _id: id } },
    });
    await page.reload();
    await page.locator('tr[data-delivery]').first().waitFor();
    expect(await page.content()).not.toContain(secret);
  });

  it('recovers the failed deliveries since a time, once each', async () => {
    hook.setReply(() => ({ status: 410 }));
    const deliveryId = (await admin.api.post(`${HOOKS}/${id}/test`)).body.data.delivery.deliveryId as string;
    const delivery = async () => (await admin.api.get(`${HOOKS}/${id}/deliveries/${deliveryId}`)).body.data.delivery;
    await eventually(async () => (await delivery()).status === 'failed');
    hook.setReply(() => ({ status: 204 }));
    await page.reload();
    await page.getByRole('button', { name: 'Reactivate' }).click();
    await page.locator('#health .status-recent-failures').waitFor();
    await page.$eval('input[name=since]', (el) => {
      const hourAgo = new Date(Date.now() - 3_600_000);
      (el as HTMLInputElement).value = new Date(hourAgo.getTime() - hourAgo.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    });
    await page.click('button:has-text("Recover failed deliveries")');
    await page.locator('#recovered').getByText('1 failed delivery sent again.').waitFor();
    await eventually(async () => (await delivery()).status === 'success');
    await shot('recover');
    // Asked again, nothing is sent twice.
    await page.click('button:has-text("Recover failed deliveries")');
    await page.locator('#recovered').getByText('0 failed deliveries sent again.').waitFor();
  });

  it('deletes it', async () => {
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('No endpoints yet.').waitFor();
    expect((await admin.api.get(`${HOOKS}/${id}`)).status).toBe(404);
  });
});

describe('a failing endpoint', () => {
  let id = '';
  // Its 21 deliveries would go on being retried for the rest of the file (a minute after their quick attempts,
  // then five minutes later): disabled, as an owner would stop them, they end at once.
  afterAll(async () => {
    if (id) expect((await admin.api.patch(`${HOOKS}/${id}`, { active: false })).status).toBe(200);
  });

  it('pages through the log and filters it by status and event type', async () => {
    id = (await admin.api.post(HOOKS, { url: failing.url, events: ['inbox.*'] })).body.data.subscription._id;
    for (let i = 0; i < 21; i++) expect((await admin.api.post(`${HOOKS}/${id}/test`)).status).toBe(202);
    await page.goto(dashboard(`#/webhooks/${id}`));
    const rows = page.locator('tr[data-delivery]');
    await page.getByText('21 in all').waitFor();
    expect(await rows.count()).toBe(20);
    const first = await rows.first().getAttribute('data-delivery');
    await page.getByRole('button', { name: 'Older →' }).click();
    await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(1);
    expect(await page.getByRole('button', { name: 'Older →' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: '← Newer' }).click();
    await expect.poll(() => rows.first().getAttribute('data-delivery'), { timeout: 15_000 }).toBe(first);

    await page.selectOption('select[name=status]', 'success');
    await page.getByText('No delivery matches these filters.').waitFor();
    // Filters changed in quick succession: the earlier, unfiltered answer arrives last and must not be shown.
    const unfiltered = /\/deliveries\?(?!.*eventType)/;
    await page.route(unfiltered, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    const late = page.waitForResponse((r) => unfiltered.test(r.url()));
    await page.selectOption('select[name=status]', '');
    await page.selectOption('select[name=eventType]', 'inbox.conversation.created');
    await page.getByText('No delivery matches these filters.').waitFor();
    await late;
    await page.unroute(unfiltered);
    await page.waitForLoadState('networkidle');
    expect(await rows.count()).toBe(0);
    await page.getByText('No delivery matches these filters.').waitFor();
    await page.selectOption('select[name=eventType]', 'webhook.ping');
    await page.getByText('21 in all').waitFor();
  }, 120_000);

  it('shows each retrying delivery with its next retry time, and the endpoint as failing', async () => {
    // Each delivery's fast retries (about 15 s) run out before it counts as one consecutive failure.
    await eventually(async () => (await admin.api.get(`${HOOKS}/${id}`)).body.data.subscription.consecutiveFailures > 0, 60_000, 1000);
    await page.reload();
    const state = page.locator('#health .status');
    await state.waitFor();
    expect(await state.getAttribute('class')).toContain('status-failing');
    // Failing in a row once its quick attempts are spent, while still retried: the words say both.
    expect(await state.textContent()).toMatch(
      new RegExp(`^failing: (1 delivery|\\d+ deliveries in a row) failed all ${FAST_ATTEMPTS} quick attempts$`),
    );
    expect(await page.locator('#health').textContent()).toContain('none finished yet (latest 21: 21 still being delivered or retried)');
    expect(await page.locator('#health').textContent()).toMatch(/Failures in a row\d+ \(the endpoint is deactivated after 100\)/);
    const row = page.locator('tr[data-delivery]').filter({ hasText: 'retrying' }).first();
    expect(await row.locator('td[data-label="Next attempt"]').textContent()).not.toBe('—');
    expect(await row.locator('td[data-label=HTTP]').textContent()).toBe('500');
    await row.getByRole('button', { name: /attempts/ }).click();
    await page.locator('li.attempt').first().getByText('500').first().waitFor();
    await page.locator('.attempts').getByText('Next attempt').waitFor();
    await shot('endpoint-failing');
  }, 90_000);

  it('fits a 390 px screen', async () => {
    await page.setViewportSize(PHONE);
    await page.reload();
    await page.locator('tr[data-delivery]').first().waitFor();
    expect(await fitsWidth()).toBe(true);
    await shot('phone-endpoint');
    await page.goto(dashboard('#/webhooks'));
    await page.getByRole('link', { name: failing.url }).waitFor();
    expect(await fitsWidth()).toBe(true);
    await page.goto(dashboard('#/settings/developer/tokens'));
    await page.getByRole('heading', { name: 'API Tokens' }).waitFor();
    expect(await fitsWidth()).toBe(true);
    await page.setViewportSize({ width: 1280, height: 900 });
  });
});

describe('workflows', () => {
  const create = async (body: Record<string, unknown>) =>
    (await admin.api.post(WORKFLOWS, { trigger: { type: 'manual' }, ...body })).body.data.workflow._id as string;
  const run = async (workflowId: string, until: (status: string) => boolean) => {
    const id = (await admin.api.post(`${WORKFLOWS}/${workflowId}/trigger`, { payload: { name: 'Ada' } })).body.data.execution._id as string;
    await eventually(async () => until((await admin.api.get(`${WORKFLOWS}/executions/${id}`)).body.data.execution.status), 60_000, 300);
    return id;
  };
  const execution = async (id: string) => (await admin.api.get(`${WORKFLOWS}/executions/${id}`)).body.data.execution;

  it('lists workflows by name and activates and deactivates one', async () => {
    await page.goto(dashboard('#/workflows'));
    await page.getByText('No workflows yet.').waitFor();
    const id = (await makeFactories({ webhookUrl: hook.url })['/api/v1/workflows/executions/{id}']!.create(admin.api)).id!;
    const { workflowId } = await execution(id);
    const name = (await admin.api.get(`${WORKFLOWS}/${workflowId}`)).body.data.workflow.name as string;
    await page.reload();
    const row = page.getByRole('row').filter({ hasText: name });
    await row.getByRole('button', { name: 'Activate', exact: true }).click();
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Deactivate', exact: true }).waitFor();
    expect((await admin.api.get(`${WORKFLOWS}/${workflowId}`)).body.data.workflow.active).toBe(true);
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Deactivate', exact: true }).click();
    await page.getByRole('row').filter({ hasText: name }).getByRole('button', { name: 'Activate', exact: true }).waitFor();
    expect((await admin.api.get(`${WORKFLOWS}/${workflowId}`)).body.data.workflow.active).toBe(false);
    await page
      .getByRole('row')
      .filter({ hasText: `${name} v1` })
      .waitFor();
    await shot('workflows');
  });

  it('shows a failed run: its graph, each step with input, output, attempt n of m and its handler, and retries it', async () => {
    const workflowId = await create({
      name: 'Sync with retries',
      nodes: [
        { id: 'who', type: 'set_variable', config: { name: 'who', value: '{{trigger.name}}' } },
        { id: 'again', type: 'retry', config: { maxAttempts: 2, backoff: 'fixed', baseDelaySeconds: 0 } },
        { id: 'sync', type: 'http_request', config: { method: 'POST', url: failing.url, body: { who: '{{vars.who}}' } } },
      ],
      edges: [
        { from: 'who', to: 'again', branch: 'next' },
        { from: 'again', to: 'sync', branch: 'body' },
      ],
    });
    const id = await run(workflowId, (s) => s === 'failed');
    await page.goto(dashboard(`#/workflows/executions/${id}`));
    await page.getByRole('heading', { name: 'Sync with retries: execution' }).waitFor();
    expect(
      await page
        .locator('svg.graph g[data-node]')
        .evaluateAll((gs) => gs.map((g) => `${g.getAttribute('data-node')} ${g.getAttribute('class')}`)),
    ).toEqual(['who node node-succeeded', 'again node node-not-run', 'sync node node-failed']);
    expect(await page.locator('svg.graph .branch').allTextContents()).toEqual(['body']);
    const who = page.locator('li[data-step="who:1"]');
    expect(await who.locator('.json').first().textContent()).toContain('{{trigger.name}}');
    expect(await who.textContent()).toContain('attempt 1');
    const second = page.locator('li[data-step="sync:2"]');
    expect(await second.textContent()).toContain('attempt 2 of 3');
    expect(await second.locator('dt:has-text("Handled by") + dd').textContent()).toBe('again');
    expect(await second.locator('dt:has-text("Waited before") + dd').textContent()).toBe('none');
    expect(await second.textContent()).toContain('HTTP 500');
    expect(await page.locator('li[data-step="sync:3"]').textContent()).toContain('attempt 3 of 3');
    expect(await page.locator('li[data-step="sync:1"] .json').first().textContent()).toContain(failing.url);
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    await shot('execution');

    await page.setViewportSize(PHONE);
    await page.reload();
    await page.locator('li[data-step="sync:3"]').waitFor();
    expect(await fitsWidth()).toBe(true);
    await shot('phone-execution');
    await page.setViewportSize({ width: 1280, height: 900 });

    await page.getByRole('button', { name: 'Retry from the failed step' }).click();
    await eventually(async () => (await execution(id)).steps.length > 4, 60_000, 300);
    await eventually(async () => (await execution(id)).status === 'failed', 60_000, 300);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.locator('li[data-step="sync:4"]').waitFor();
  }, 120_000);

  it('cancels a waiting run', async () => {
    const workflowId = await create({
      name: 'Wait a while',
      nodes: [
        { id: 'pause', type: 'wait', config: { seconds: 600 } },
        { id: 'later', type: 'set_variable', config: { name: 'done', value: 'yes' } },
      ],
      edges: [{ from: 'pause', to: 'later', branch: 'next' }],
    });
    const id = await run(workflowId, (s) => s === 'waiting');
    await page.goto(dashboard(`#/workflows/executions/${id}`));
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('.facts .status-cancelled').waitFor();
    expect((await execution(id)).status).toBe('cancelled');
    expect(await page.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
  });
});

describe('the live event feed', () => {
  const feedIds = () => page.locator('#event-feed > li').evaluateAll((items) => items.map((li) => li.getAttribute('data-event-id')));
  const newCustomer = async (name: string) => {
    const created = await admin.api.post('/api/v1/contacts/customers', { name, email: `${name.toLowerCase()}-${Date.now()}@example.com` });
    const id = created.body.data.customer._id as string;
    const { body } = await admin.api.get('/api/v1/events?types=customer.contact.created&limit=20');
    return body.data.events.find((e: { data: { contact: { _id: string } } }) => e.data.contact._id === id).eventId as string;
  };

  it('shows a change made through the API on top as it happens, resumes after a dropped socket without a gap or a repeat, and keeps the newest 200', async () => {
    // The page's sockets pass through as they are; the test can drop one, and sees the page close one.
    const sockets: { page: WebSocketRoute; server: WebSocketRoute; closedByPage: boolean }[] = [];
    await page.routeWebSocket(/\/realtime\?ticket=/, (ws) => {
      const socket = { page: ws, server: ws.connectToServer(), closedByPage: false };
      ws.onClose((code, reason) => {
        socket.closedByPage = true;
        void socket.server.close({ code, reason });
      });
      sockets.push(socket);
    });
    await page.goto(dashboard('#/events'));
    await page.getByRole('heading', { name: 'Events' }).waitFor();
    await expect.poll(() => sockets.length).toBe(1);
    // The page is never reloaded: a mark on its window survives to the end.
    await page.evaluate(() => Object.assign(window, { feedMark: true }));

    const first = await newCustomer('Grace');
    await expect.poll(feedIds, { timeout: 20_000 }).toContain(first);
    expect((await feedIds())[0]).toBe(first);
    const top = page.locator('#event-feed > li').first();
    expect(await top.locator('.event-type').textContent()).toBe('customer.contact.created');
    expect(await top.locator('.event-summary').textContent()).toBe('contact “Grace”');
    expect(await top.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);

    // The socket drops; the change made meanwhile arrives once the page has reconnected with a new ticket.
    await Promise.all([sockets[0]!.page.close({ code: 1001 }), sockets[0]!.server.close()]);
    const missed = await newCustomer('Hopper');
    await expect.poll(() => sockets.length, { timeout: 20_000 }).toBe(2);
    await expect.poll(feedIds, { timeout: 20_000 }).toContain(missed);
    const ids = await feedIds();
    expect(ids.slice(0, 2)).toEqual([missed, first]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(await page.evaluate(() => (window as unknown as { feedMark?: boolean }).feedMark)).toBe(true);
    await shot('events');

    // A burst larger than the page keeps: the newest 200 stay, newest on top.
    const burst = await writeCustomers(admin.tenant, 210, 4);
    await expect.poll(feedIds, { timeout: 60_000 }).toEqual([...burst].sort().reverse().slice(0, 200));

    // Leaving the page closes its socket.
    await page.goto(dashboard('#/webhooks'));
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await expect.poll(() => sockets[1]!.closedByPage).toBe(true);
    expect(sockets).toHaveLength(2);
  });
});

describe('busy states', () => {
  /** Holds every API request until `release`, so the page is caught while it waits. */
  const holdApi = async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const held: Promise<void>[] = [];
    const hold = (route: Route) => {
      const continued = gate.then(() => route.continue());
      held.push(continued);
      return continued;
    };
    await page.route('**/api/v1/**', hold);
    return {
      arrived: () => expect.poll(() => held.length, { timeout: 15_000 }).toBeGreaterThan(0),
      release: async () => {
        open();
        await Promise.all(held);
        await page.unroute('**/api/v1/**', hold);
      },
    };
  };

  it('shows each page busy while its data loads, then its content', async () => {
    const subscription = (await admin.api.post(HOOKS, { url: `${hook.url}?busy`, events: ['inbox.*'] })).body.data.subscription
      ._id as string;
    const workflowId = (
      await admin.api.post(WORKFLOWS, {
        name: 'Busy check',
        trigger: { type: 'manual' },
        nodes: [{ id: 'set', type: 'set_variable', config: { name: 'x', value: '1' } }],
        edges: [],
      })
    ).body.data.workflow._id as string;
    const execution = (await admin.api.post(`${WORKFLOWS}/${workflowId}/trigger`, { payload: {} })).body.data.execution._id as string;
    const pages = [
      { hash: '#/settings/developer/tokens', loaded: page.getByRole('heading', { name: 'API Tokens' }) },
      { hash: '#/webhooks', loaded: page.getByRole('heading', { name: 'Webhooks' }) },
      { hash: `#/webhooks/${subscription}`, loaded: page.locator('h1').getByText('?busy') },
      { hash: '#/workflows', loaded: page.getByRole('heading', { name: 'Workflows', level: 1 }) },
      { hash: `#/workflows/executions/${execution}`, loaded: page.getByRole('heading', { name: 'Busy check: execution' }) },
    ];
    for (const { hash, loaded } of pages) {
      await page.goto(dashboard('#/'));
      await page.getByRole('heading', { name: 'API Tokens' }).waitFor();
      const api = await holdApi();
      await page.goto(dashboard(hash));
      await api.arrived();
      await page.locator('#main[aria-busy=true] .busy').getByText('Loading…').waitFor();
      expect(await loaded.count()).toBe(0);
      await api.release();
      await page.locator('#main[aria-busy=false]').waitFor({ state: 'attached' });
      expect(await loaded.isVisible()).toBe(true);
      expect(await page.locator('#main .busy').count()).toBe(0);
    }
  });

  it('shows the delivery log busy while a filtered page loads', async () => {
    const log = page.locator('#main');
    const id = (await admin.api.get(HOOKS)).body.data.subscriptions.find((s: { url: string }) => s.url.endsWith('?busy'))._id as string;
    await page.goto(dashboard(`#/webhooks/${id}`));
    await page.getByText('No deliveries yet. Send a test event to see one.').waitFor();
    const api = await holdApi();
    await page.selectOption('select[name=status]', 'failed');
    await api.arrived();
    await log.locator('.busy').getByText('Loading…').waitFor();
    await shot('busy-log');
    await api.release();
    await page.getByText('No delivery matches these filters.').waitFor();
    expect(await log.locator('.busy').count()).toBe(0);
  });
});

describe('a sign-in over the rate limit', () => {
  it('counts down the wait instead of waiting silently, and a live token shows as live', async () => {
    inFreshRateWindow();
    const live = await env.liveMode(admin);
    for (let i = 0; ; i++) {
      const res = await fetch(`${env.stack.baseUrl}/api/v1/auth/workspaces`, { headers: { authorization: `Bearer ${live.token}` } });
      if (res.status === 429) break;
      expect(i).toBeLessThan(30);
    }
    await page.getByRole('button', { name: 'Sign out' }).click();
    const started = Date.now();
    await signIn(live.token);
    const alert = page.getByRole('alert');
    await alert.getByText(/Too many sign-ins with this token\. Try again in \d+:\d\d\./).waitFor();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);
    const before = await alert.textContent();
    await expect.poll(() => alert.textContent(), { timeout: 5_000 }).not.toBe(before);
    await shot('signin-rate-limited');

    const fresh = await env.liveMode(admin);
    await page.fill('input[name=token]', fresh.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'API Tokens' }).waitFor();
    expect(await page.locator('#mode').textContent()).toBe('Live');
  });
});

describe('the reference page', () => {
  it('renders the document at /docs from the bundled renderer, with nothing fetched from outside', async () => {
    const blocked: string[] = [];
    page.on('console', (m) => void (m.text().includes('Content Security Policy') && blocked.push(m.text())));
    await page.goto(`${env.stack.baseUrl}/docs`);
    await page.getByRole('heading', { name: 'Parley API (1.0.0)' }).waitFor({ timeout: 90_000 });
    // Operations sit in collapsed sections: present in the page, not yet on screen.
    await page.getByText('Create an API token').first().waitFor({ state: 'attached' });
    await page.screenshot({ path: `${SHOTS}/docs.png` });
    expect(external).toEqual([]);
    // The renderer's one outside asset (a logo) is refused by the page's own policy, never requested.
    expect(blocked.every((m) => m.includes('cdn.redoc.ly'))).toBe(true);
  }, 120_000);
});
