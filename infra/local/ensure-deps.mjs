// Runs before `npm start` and `npm test` (npm's pre-scripts), with no dependencies of its own: installs
// exactly what package-lock.json says when node_modules lacks any locked package at its locked version,
// checks for the Java runtime DynamoDB Local needs and, before the tests, installs Debian's Chromium when it
// is missing. With the two commands this is the whole setup.
import { execSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

const packages = (file) => (existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')).packages ?? {}) : {});
const locked = packages('package-lock.json');
const installed = packages('node_modules/.package-lock.json');
const stale = Object.entries(locked).some(([path, p]) => path !== '' && !p.optional && installed[path]?.version !== p.version);
if (stale) {
  process.stdout.write('Installing dependencies (npm ci)…\n');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}

const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
const major = Number(/version "(\d+)/.exec(java.stderr ?? '')?.[1] ?? 0);
if (java.error || major < 17) {
  process.stderr.write(
    'Parley runs Amazon DynamoDB Local, which needs Java 17 or newer on PATH (e.g. `apt-get install openjdk-17-jre-headless`).\n',
  );
  process.exit(1);
}

// The dashboard's browser tests drive Debian's Chromium (playwright-core downloads no browser).
const CHROMIUM = '/usr/bin/chromium';
if (process.env.npm_lifecycle_event === 'pretest' && !existsSync(CHROMIUM)) {
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).status === 0;
  if (!canInstall) {
    process.stderr.write(`The browser tests need Debian's Chromium at ${CHROMIUM}: run \`sudo apt-get install -y chromium\`.\n`);
    process.exit(1);
  }
  process.stdout.write('Installing Chromium for the browser tests (apt-get install chromium)…\n');
  execSync('apt-get update -qq && apt-get install -y -qq chromium', { stdio: 'inherit' });
}
