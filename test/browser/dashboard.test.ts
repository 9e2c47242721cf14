import { existsSync, mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../support/api';
import { startReceiver, type Receiver } from '../support/https-receiver';
import { makeFactories } from '../support/resource-factories';
import { useTestStack } from '../support/stack';

/**
 * The dashboard in a real headless Chromium (Debian's, driven by playwright-core) against the real local
 * stack. Every request the pages make is watched: anything leaving 127.0.0.1 fails the test (offline).
 * Screenshots of each page go to `.build/test-output/dashboard/`.
 */
const CHROMIUM = '/usr/bin/chromium';
const SHOTS = resolve('.build/test-output/dashboard');
const HOOKS = '/api/v1/integrations/webhooks';

const env = useTestStack({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
let browser: Browser;
let page: Page;
let receiver: Receiver;
let admin: { token: string; workspaceId: string; api: Client };
const external: string[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const until = async <T>(what: string, read: () => Promise<T | undefined>, ms = 20_000): Promise<T> => {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(200)) {
    const value = await read();
    if (value !== undefined) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
};

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`);
  mkdirSync(SHOTS, { recursive: true });
  // The first attempt of each delivery is refused for good (410), the next ones succeed.
  receiver = await startReceiver((_, i) => (i === 0 ? { status: 410 } : { status: 204 }));
  admin = await env.tenant();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.stack.baseUrl });
  await context.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.hostname === '127.0.0.1') return route.continue();
    external.push(url.href);
    return route.abort();
  });
  page = await context.newPage();
  page.on('dialog', (d) => void d.accept());
  await page.goto(`${env.stack.baseUrl}/dashboard`);
  await page.fill('input[name=token]', admin.token);
  await page.click('button[type=submit]');
  await page.getByRole('heading', { name: 'API Tokens' }).waitFor();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await receiver?.stop();
  expect(external).toEqual([]);
});

describe('the dashboard', () => {
  let secret = '';

  it('creates a token and shows its value once, copyable', async () => {
    await page.fill('input[name=name]', 'browser-made');
    await page.check('input[value="tags:read"]');
    await page.click('button:has-text("Create token")');
    secret = (await page.locator('#new-token-value').textContent({ timeout: 20_000 }))!;
    expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{48}$/);
    await page.click('button:has-text("Copy")');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.screenshot({ path: `${SHOTS}/tokens.png`, fullPage: true });
    // The API answers it at once; the page never shows it again.
    const works = await fetch(`${env.stack.baseUrl}/api/v1/tags`, { headers: { authorization: `Bearer ${secret}`, 'x-workspace-id': admin.workspaceId } });
    expect(works.status).toBe(200);
    await page.reload();
    await page.getByRole('cell', { name: 'browser-made' }).waitFor();
    expect(await page.content()).not.toContain(secret.slice(16));
  });

  it('revokes it, and the API refuses it from then on', async () => {
    const row = page.getByRole('row').filter({ hasText: 'browser-made' });
    await row.getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('revoked').waitFor({ timeout: 20_000 });
    const refused = await fetch(`${env.stack.baseUrl}/api/v1/tags`, { headers: { authorization: `Bearer ${secret}`, 'x-workspace-id': admin.workspaceId } });
    expect(refused.status).toBe(401);
  });

  it('shows a failed delivery with its attempts and retries it', async () => {
    const sub = (await admin.api.post(HOOKS, { url: receiver.url, events: ['inbox.*'] })).body.data.subscription;
    const deliveryId = (await admin.api.post(`${HOOKS}/${sub._id}/test`)).body.data.delivery.deliveryId as string;
    const read = async () => (await admin.api.get(`${HOOKS}/${sub._id}/deliveries/${deliveryId}`)).body.data.delivery;
    await until('the delivery to fail', async () => ((await read()).status === 'failed' ? true : undefined));
    // A 410 deactivated the subscription; turned back on, its failed delivery may be retried.
    expect((await admin.api.patch(`${HOOKS}/${sub._id}`, { active: true })).status).toBe(200);

    await page.goto(`${env.stack.baseUrl}/dashboard#/webhooks`);
    await page.getByRole('link', { name: receiver.url }).click();
    const row = page.getByRole('row').filter({ hasText: 'webhook.ping' });
    await row.getByText('failed').waitFor();
    await row.getByRole('button', { name: '1 attempt' }).click();
    await row.getByText('gone_410').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/webhooks.png`, fullPage: true });
    await row.getByRole('button', { name: 'Retry' }).click();
    await until('the retried delivery to succeed', async () => ((await read()).status === 'success' ? true : undefined));
    await page.reload();
    const after = page.getByRole('row').filter({ hasText: 'webhook.ping' }).first();
    await after.getByText('success').first().waitFor();
    await after.getByRole('button', { name: '2 attempts' }).click();
    await after.getByRole('cell', { name: '204' }).first().waitFor();
    expect(await after.getByRole('button', { name: 'Retry' }).count()).toBe(0);
  });

  it('lists workflow executions and opens one with its step history', async () => {
    const { id } = await makeFactories({ webhookUrl: receiver.url })['/api/v1/workflows/executions/{id}']!.create(admin.api);
    await page.goto(`${env.stack.baseUrl}/dashboard#/workflows`);
    await page.getByRole('link', { name: id }).click();
    await page.getByRole('cell', { name: 'remember' }).waitFor();
    await page.getByRole('heading', { name: `Execution ${id}` }).waitFor();
    await page.screenshot({ path: `${SHOTS}/workflows.png`, fullPage: true });
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
