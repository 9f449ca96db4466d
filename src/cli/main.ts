/**
 * `folio`: the command line of Folio (issue 16), built on @folio/client (packages/client).
 * Data goes to stdout, progress and messages to stderr; exit 0 on success, 1 when the service
 * refuses (its message printed as is), 2 on a usage error. `folio --help` lists the commands.
 */
import { main } from './cli.ts';

const controller = new AbortController();
// The first Ctrl-C stops what is under way (uploads, polling) and exits 130; a second one now.
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort();
});

const code = await main(
  process.argv.slice(2),
  process.env,
  { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin },
  controller.signal,
);
process.exit(code);
