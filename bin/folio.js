#!/usr/bin/env node
// The CLI is TypeScript run by Node's type stripping (Node >= 22.18). On an older Node,
// re-run it with the Node 24 that package.json pins into node_modules.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'src', 'cli', 'main.ts');
const [major, minor] = process.versions.node.split('.').map(Number);

if (major > 22 || (major === 22 && minor >= 18)) {
  await import(cli);
} else {
  const pinned = path.join(root, 'node_modules', 'node', 'bin', 'node');
  const result = spawnSync(pinned, [cli, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
