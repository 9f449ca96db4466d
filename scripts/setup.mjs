#!/usr/bin/env node
// `npm run setup`: everything a fresh machine needs. Plain JavaScript on purpose: it runs
// on whatever Node the machine has, before the pinned Node 24 exists in node_modules.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const run = (cmd, args, opts = {}) => {
  console.log(`setup: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts });
  if (r.status !== 0) {
    console.error(`setup: "${cmd} ${args.join(' ')}" failed (exit ${r.status})`);
    process.exit(r.status ?? 1);
  }
};

// 1. npm dependencies (the pinned Node 24 among them), as the lock file pins them.
run('npm', ['install', '--no-audit', '--no-fund']);

// 2. Debian packages, only those missing, only when we may install them.
const wanted = readFileSync(path.join(root, 'scripts', 'debian-packages.txt'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const hasApt =
  spawnSync('sh', ['-c', 'command -v apt-get && command -v dpkg-query'], { stdio: 'ignore' }).status === 0;
const installed = (pkg) => {
  try {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format syntax
    return execFileSync('dpkg-query', ['-W', '-f=${Status}', pkg], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .includes('install ok installed');
  } catch {
    return false;
  }
};
if (!hasApt) {
  console.log(`setup: no apt-get here; install these with your package manager: ${wanted.join(' ')}`);
} else {
  const missing = wanted.filter((p) => !installed(p));
  if (missing.length === 0) {
    console.log('setup: Debian packages already installed');
  } else if (process.getuid?.() === 0) {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    run('apt-get', ['update', '-qq'], { env });
    run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env });
  } else {
    console.log(
      `setup: not root; please run: sudo apt-get install -y --no-install-recommends ${missing.join(' ')}`,
    );
  }
}
// 3. The web app served at /app (Vite build into dist/web, git-ignored).
run('npm', ['run', 'build:web']);
console.log('setup: done. Start the service with `npm start`.');
