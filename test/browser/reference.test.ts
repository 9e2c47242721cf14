import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/chromium';
import { useTestStack } from '../support/stack';

/**
 * The reference page (`/docs`, Redoc) in a real headless Chromium against the local stack. Every request the
 * page makes is recorded with its host (one the page's CSP then blocks included), and every console error or
 * warning: the page must need nothing but its own origin.
 */
const env = useTestStack();
let browser: Browser;
let page: Page;
const hosts = new Set<string>();
const problems: string[] = [];

/** The host a request goes to; a `blob:` URL's is its creator's. */
const hostOf = (url: string) => new URL(url.startsWith('blob:') ? url.slice('blob:'.length) : url).host;

beforeAll(async () => {
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.on('request', (r) => {
    if (!r.url().startsWith('data:')) hosts.add(hostOf(r.url()));
  });
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  await page.goto(`${env.stack.baseUrl}/docs`);
  await page.locator('.api-content').waitFor({ timeout: 120_000 });
}, 180_000);

afterAll(() => browser?.close());

describe('the reference page in Chromium', () => {
  it('requests nothing from any host but its own, and logs no error', async () => {
    await page.waitForLoadState('networkidle');
    expect([...hosts]).toEqual([new URL(env.stack.baseUrl).host]);
    expect(problems).toEqual([]);
  });

  it('shows the tag groups and Title Case tags in the menu, once each', async () => {
    const menu = await page.locator('.menu-content').innerText();
    for (const group of ['MESSAGING', 'CUSTOMERS', 'AUTOMATION', 'INSIGHTS', 'PLATFORM']) expect(menu.toUpperCase()).toContain(group);
    const webhooks = await page.locator('.menu-content label', { hasText: /^Webhooks$/ }).count();
    expect(webhooks).toBe(1);
    expect(menu).not.toMatch(/^webhook$/m);
  });

  it("shows each operation's curl and @parley/client samples", async () => {
    const operation = page.locator('[id="tag/Tags/operation/tagsCreateTag"]');
    await operation.scrollIntoViewIfNeeded();
    await expect.poll(() => operation.innerText(), { timeout: 30_000 }).toContain('@parley/client');
    const shown = async (tab: string) => {
      await operation.getByRole('tab', { name: tab, exact: true }).click();
      return operation.locator('[role=tabpanel][aria-hidden=false], .react-tabs__tab-panel--selected').first().innerText();
    };
    expect(await shown('curl')).toMatch(/curl -X POST "\$PARLEY_URL\/api\/v1\/tags"/);
    expect(await shown('@parley/client')).toMatch(/await parley\.post\('\/tags', \{/);
  });

  it("shows the workspace's examples as samples, never a generated placeholder", async () => {
    const operation = page.locator('[id="tag/Tags/operation/tagsCreateTag"]');
    await operation.scrollIntoViewIfNeeded();
    // The request sample's own tab: the case above leaves the client's selected.
    await operation.getByRole('tab', { name: 'Payload', exact: true }).click();
    await expect.poll(() => operation.innerText(), { timeout: 30_000 }).toContain('"Cafés and shops that buy beans in bulk"');
    const text = await page.locator('.api-content').innerText();
    expect(text).toContain('Northwind Coffee');
    expect(text).not.toMatch(/property1|"string"/);
  });

  it('shows the webhook events beside the routes of their area', async () => {
    const ping = page.locator('[id*="webhook.ping"], [id*="event_webhook_ping"]').first();
    await expect.poll(() => ping.count(), { timeout: 30_000 }).toBe(1);
    // Redoc files an event under its tag: the Webhooks area's routes and its events in one section.
    expect(await ping.getAttribute('id')).toBe('tag/Webhooks/operation/event_webhook_ping');
    const section = await page.locator('[id="tag/Webhooks"]').count();
    expect(section).toBe(1);
  });

  it("lists each area's routes first and its webhook events after, the areas in the document's order", async () => {
    const document = await (await fetch(`${env.stack.baseUrl}/api/v1/openapi.json`)).json();
    const tagOrder = (document['x-tagGroups'] as { tags: string[] }[]).flatMap((g) => g.tags);
    const ids = await page.locator('[id^="tag/"][id*="/operation/"]').evaluateAll((els) => els.map((el) => el.id));
    const sections = [...new Set(ids.map((id) => id.split('/')[1]!))];
    expect(sections).toEqual(tagOrder.filter((t) => sections.includes(t)));
    for (const tag of sections) {
      const kinds = ids.filter((id) => id.startsWith(`tag/${tag}/`)).map((id) => (id.includes('/operation/event_') ? 'event' : 'route'));
      expect(kinds.join(' '), tag).toMatch(/^(route ?)*(event ?)*$/);
    }
    // Inbox has both: its first entry is a route, not one of its events.
    const inbox = ids.filter((id) => id.startsWith('tag/Inbox/'));
    expect(inbox[0]).not.toContain('/operation/event_');
    expect(inbox.some((id) => id.includes('/operation/event_'))).toBe(true);
  });
});
