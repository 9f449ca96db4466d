import { parseArgs } from 'node:util';
import { FolioError } from '../../packages/client/src/index.ts';
import {
  COMMANDS,
  type Command,
  commandHelp,
  GLOBAL_OPTIONS,
  type OptionSpec,
  OVERVIEW,
} from './commands.ts';
import { Failure, makeCtx, type Streams, UsageError } from './io.ts';

/** Other spellings people type. */
const ALIASES: Record<string, string> = {
  'tables create': 'table create',
  'table list': 'tables list',
  'file list': 'files list',
  'row add': 'rows add',
};

const GROUPS = new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]));

/** A negative number is an argument (`credits grant wks_… -5`), never an option. */
const NEGATIVE = /^-\d+$/;
const MARK = '\u0000neg';

function find(positionals: string[]): { command: Command; words: number } | null {
  const [a, b] = positionals;
  const two = b !== undefined ? (ALIASES[`${a} ${b}`] ?? `${a} ${b}`) : null;
  const byTwo = two ? COMMANDS.find((c) => c.name === two) : undefined;
  if (byTwo) return { command: byTwo, words: 2 };
  const byOne = COMMANDS.find((c) => c.name === a && !c.name.includes(' '));
  return byOne ? { command: byOne, words: 1 } : null;
}

function groupHelp(group: string): string {
  const members = COMMANDS.filter((c) => c.name.startsWith(`${group} `));
  return `Usage: folio ${group} <${members.map((c) => c.name.split(' ')[1]).join('|')}> [options]\n\n${members
    .map((c) => `  folio ${c.name.padEnd(18)} ${c.summary}`)
    .join('\n')}\n\nRun \`folio ${group} <command> --help\` for its options.\n`;
}

/** Runs one command line; resolves to the exit status. Never throws. */
export async function main(
  rawArgv: string[],
  env: NodeJS.ProcessEnv,
  streams: Streams,
  signal: AbortSignal,
): Promise<number> {
  const argv = rawArgv.map((a) => (NEGATIVE.test(a) ? `${MARK}${a}` : a));
  const unmark = (p: string) => (p.startsWith(MARK) ? p.slice(MARK.length) : p);
  const union: Record<string, OptionSpec> = { ...GLOBAL_OPTIONS };
  for (const c of COMMANDS) Object.assign(union, c.options);
  // A lenient first pass finds the command words; the strict pass below checks the options.
  const loose = parseArgs({ args: argv, options: union, allowPositionals: true, strict: false });
  const words = loose.positionals.map(unmark);
  const wantsHelp = loose.values.help === true;
  const say = (text: string) => streams.stderr.write(text.endsWith('\n') ? text : `${text}\n`);

  if (words[0] === 'help' || (wantsHelp && words.length === 0) || words.length === 0) {
    const topic = words[0] === 'help' ? words.slice(1) : words;
    const found = topic.length ? find(topic) : null;
    const text = found ? commandHelp(found.command) : GROUPS.has(topic[0]) ? groupHelp(topic[0]) : OVERVIEW;
    if (words.length === 0 && !wantsHelp) {
      say(`folio: no command given\n\n${OVERVIEW}`);
      return 2;
    }
    streams.stdout.write(text);
    return 0;
  }
  const found = find(words);
  if (!found) {
    if (GROUPS.has(words[0])) {
      if (wantsHelp) {
        streams.stdout.write(groupHelp(words[0]));
        return 0;
      }
      say(`folio: unknown command: ${words.slice(0, 2).join(' ')}\n\n${groupHelp(words[0])}`);
    } else {
      say(`folio: unknown command: ${words[0]}\n\n${OVERVIEW}`);
    }
    return 2;
  }
  const { command } = found;
  if (wantsHelp) {
    streams.stdout.write(commandHelp(command));
    return 0;
  }

  let baseUrl = '';
  try {
    let parsed: ReturnType<typeof parseArgs<{ options: Record<string, OptionSpec>; allowPositionals: true }>>;
    try {
      parsed = parseArgs({
        args: argv,
        options: { ...GLOBAL_OPTIONS, ...command.options },
        allowPositionals: true,
        strict: true,
      });
    } catch (e) {
      throw new UsageError(
        (e as Error).message.replace(/\. To specify a positional argument.*$/s, ''),
        command.name,
      );
    }
    const values = parsed.values as Record<string, string | boolean | string[] | undefined>;
    const ctx = makeCtx(env, streams, {
      json: values.json === true,
      url: values.url as string | undefined,
      workspace: values.workspace as string | undefined,
      command: command.name,
      signal,
    });
    baseUrl = ctx.baseUrl;
    return await command.run(ctx, values, parsed.positionals.map(unmark).slice(found.words));
  } catch (e) {
    if (e instanceof UsageError) {
      const usage = e.command ? commandHelp(COMMANDS.find((c) => c.name === e.command) ?? command) : OVERVIEW;
      say(`folio: ${e.message}\n\n${usage}`);
      return 2;
    }
    if (e instanceof FolioError) {
      say(`folio: ${e.error || 'the service refused the request'} (HTTP ${e.status})`);
      return 1;
    }
    if (e instanceof Failure) {
      say(`folio: ${e.message}`);
      return 1;
    }
    if (signal.aborted) {
      say('folio: stopped');
      return 130;
    }
    const err = e as Error & { cause?: { code?: string; message?: string } };
    if (err instanceof TypeError && err.message === 'fetch failed') {
      say(
        `folio: cannot reach the service at ${baseUrl}: ${err.cause?.code ?? err.cause?.message ?? 'no answer'}`,
      );
      return 1;
    }
    say(`folio: ${err.message ?? String(e)}`);
    return 1;
  }
}
