import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { buildSync } from 'esbuild';

/**
 * The static site: the API reference (`/docs`, Redoc's standalone bundle from the installed package, so it
 * works offline) and the dashboard (`/dashboard`, bundled with esbuild). The local gateway serves it; for
 * AWS `npm run site` writes it out and the site stack puts it behind CloudFront beside the API.
 */
export interface SiteFile {
  body: Buffer;
  type: string;
}

export type Site = Map<string, SiteFile>;

const here = import.meta.dirname;
const dashboard = resolve(here, '..', '..', 'packages', 'dashboard');
const require = createRequire(import.meta.url);

const html = 'text/html; charset=utf-8';
const js = 'text/javascript; charset=utf-8';

const docsPage = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Parley API reference</title>
    <!-- Offline by construction: only this origin is allowed (the bundle's one outside URL is removed below). -->
    <link rel="icon" href="data:," />
    <meta
      http-equiv="Content-Security-Policy"
      content="default-src 'self'; script-src 'self' blob:; worker-src 'self' blob:; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:"
    />
  </head>
  <body>
    <redoc spec-url="/api/v1/openapi.json"></redoc>
    <script src="/docs/redoc.standalone.js"></script>
  </body>
</html>
`;

/** Redoc's attribution logo, the only outside URL in its standalone bundle. */
const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';
const EMPTY_IMAGE = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/%3E";

/**
 * Where Redoc files each operation under its tag (`getTagsWithOperations`): it adds the document's webhook
 * events first and its paths after, so an area's events came before its routes. Paths first, events after.
 */
const EVENTS_FIRST = 'return i&&o(e,i,!0),n.paths&&o(e,n.paths),r}';
const ROUTES_FIRST = 'return n.paths&&o(e,n.paths),i&&o(e,i,!0),r}';

/** `text` with `from` replaced by `to`, which must occur exactly once (a Redoc upgrade that moves it fails here). */
const replaceOnce = (text: string, from: string, to: string): string => {
  const parts = text.split(from);
  if (parts.length !== 2) throw new Error(`redoc.standalone.js: expected ${from} once, found it ${parts.length - 1} times`);
  return parts.join(to);
};

/**
 * Redoc's standalone bundle with its logo dropped, so the page requests nothing from another host, and each
 * area's routes listed before its webhook events.
 */
const offlineRedoc = (): Buffer => {
  const bundle = readFileSync(require.resolve('redoc/bundles/redoc.standalone.js'), 'utf8');
  return Buffer.from(replaceOnce(replaceOnce(bundle, REDOC_LOGO, EMPTY_IMAGE), EVENTS_FIRST, ROUTES_FIRST));
};

/** The dashboard's browser bundle: one minified ES module. */
const bundleDashboard = (): Buffer => {
  const out = buildSync({
    entryPoints: [resolve(dashboard, 'app.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return Buffer.from(out.outputFiles[0]!.contents);
};

const DASHBOARD_CSP = `default-src 'self';`;

/**
 * The dashboard's page. Locally the realtime socket is on the page's own origin, which `'self'` allows; on AWS it
 * is API Gateway's WebSocket URL, which the site stack passes here so the page may connect to it and nowhere else.
 */
export const dashboardPage = (socketUrl?: string): string => {
  const page = readFileSync(resolve(dashboard, 'index.html'), 'utf8');
  return socketUrl ? replaceOnce(page, DASHBOARD_CSP, `${DASHBOARD_CSP} connect-src 'self' ${socketUrl};`) : page;
};

/** Synchronous (esbuild's `buildSync`), so CDK can build it while it synthesizes. */
export const buildSite = (): Site =>
  new Map<string, SiteFile>([
    ['docs/index.html', { body: Buffer.from(docsPage), type: html }],
    ['docs/redoc.standalone.js', { body: offlineRedoc(), type: js }],
    ['dashboard/index.html', { body: Buffer.from(dashboardPage()), type: html }],
    ['dashboard/app.css', { body: readFileSync(resolve(dashboard, 'app.css')), type: 'text/css; charset=utf-8' }],
    ['dashboard/app.js', { body: bundleDashboard(), type: js }],
    // Browsers ask every origin for it unprompted: without it, each page view would be an API request.
    ['favicon.ico', { body: readFileSync(resolve(here, 'favicon.svg')), type: 'image/svg+xml' }],
  ]);

/** Writes the site under `dir`, one file per key; returns `dir`. */
export const writeSite = (dir: string, site: Site = buildSite()): string => {
  for (const [key, file] of site) {
    mkdirSync(dirname(resolve(dir, key)), { recursive: true });
    writeFileSync(resolve(dir, key), file.body);
  }
  return dir;
};

/** `/docs` and `/docs/` → `docs/index.html`, as CloudFront's viewer-request function rewrites them; `/favicon.ico` is the site's. */
export const siteKey = (path: string): string | undefined => {
  if (path === '/favicon.ico') return 'favicon.ico';
  const m = /^\/(docs|dashboard)(\/.*)?$/.exec(path);
  if (!m) return undefined;
  const rest = m[2] && m[2] !== '/' ? m[2] : '/index.html';
  return `${m[1]}${rest}`;
};
