import { adminCommand, apiCommand, tablesListCommand } from './admin.ts';
import { filesListCommand, searchCommand } from './files.ts';
import type { Ctx } from './io.ts';
import { exportCommand, rowsAddCommand, runCommand, tableCreateCommand } from './tables.ts';
import { uploadCommand } from './upload.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
}

export interface Command {
  /** The words that name it: 'upload', 'table create'. */
  name: string;
  summary: string;
  /** Its help, from the Usage line down. */
  help: string;
  options: Record<string, OptionSpec>;
  admin?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: each command reads its own typed subset of the parsed options
  run(ctx: Ctx, values: any, positionals: string[]): Promise<number>;
}

export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  url: { type: 'string' },
  workspace: { type: 'string', short: 'w' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const GLOBAL_HELP = `Global options:
  --url URL            the service (default $FOLIO_URL, else http://127.0.0.1:$PORT, PORT 8080)
  -w, --workspace ID   the workspace (default $FOLIO_WORKSPACE, else the API key's own)
  --json               print machine-readable JSON on stdout
  -h, --help           this help`;

export const COMMANDS: Command[] = [
  {
    name: 'upload',
    summary: 'upload documents, with progress; --wait to wait until they are read',
    options: { concurrency: { type: 'string' }, wait: { type: 'boolean' } },
    help: `Usage: folio upload <files|dirs|globs...> [--concurrency N] [--wait]

Uploads documents to the workspace (POST /v2/workspaces/:ws/files), a few at a time, and
prints one line per file (file id, status, pages) and a summary.

  <files>            files named outright are sent whatever their extension
  <dirs>             directories are walked (recursively, hidden entries skipped) for documents:
                     .pdf .doc .docx .pptx .xlsx .jpg .jpeg .png .webp; other files are skipped
  <globs>            quoted patterns such as 'scans/**/*.pdf' match like directories do
  --concurrency N    files in flight at once (uploading, or being read with --wait); default 4
  --wait             wait until every file is read (its ingest job is SUCCESS or ERROR), then
                     count the pages read and the credits spent. Credits are the workspace
                     balance before minus after (ingest costs 1 credit per page): exact unless
                     something else spends in the workspace meanwhile (a standing table, say)

On a terminal a bar per file in flight and an overall bar are drawn on stderr. Exit 1 when
any file is refused or its job ends ERROR (the others still go), with the service's message.
--json prints {files: [{path, name, size, fileId, jobId, status, statusText, pages, error}],
uploaded, failed, skipped, pages, credits, balance}.`,
    run: uploadCommand,
  },
  {
    name: 'files list',
    summary: 'list the files of the workspace, newest first',
    options: { limit: { type: 'string' }, types: { type: 'string' } },
    help: `Usage: folio files list [--limit N] [--types doc,image,...]

Lists the workspace's files, newest first: id, pages, size, upload time, name. Walks every page
of GET /v2/workspaces/:ws/files.

  --limit N          at most N files (default: all)
  --types LIST       comma-separated: doc, image, image_list, audio, video

--json prints the array of file records.`,
    run: filesListCommand,
  },
  {
    name: 'search',
    summary: 'rank pages of the workspace for a question (1 credit)',
    options: { limit: { type: 'string' }, files: { type: 'string', multiple: true } },
    help: `Usage: folio search "question" [--limit N] [--files ds_a,ds_b]

Ranks the workspace's pages for the question (POST /v1/search; costs 1 credit by default) and
prints score, file id, page and file name, best first. Results are pages, not answers.

  --limit N          at most N pages, 1-100 (default 10)
  --files IDS        search only these files (comma-separated, or repeat the option)

--json prints the array of hits ({id, datasetId, row, col, score, share, ...}).`,
    run: searchCommand,
  },
  {
    name: 'table create',
    summary: 'create a table with the columns of a YAML or JSON file',
    options: { name: { type: 'string' }, columns: { type: 'string', multiple: true } },
    help: `Usage: folio table create --name NAME --columns columns.yaml|columns.json

Creates a table and its columns, in file order. The file (YAML or JSON) is a list of columns,
or a mapping with \`columns:\` (and optionally \`name:\`, used when --name is not given):

  columns:
    - name: Vendor
      prompt: Which company issued this invoice?
    - name: Total
      prompt: What is the total amount including tax?
      outputType: number
    - name: Currency
      prompt: In which currency is the invoice stated?
      outputType: categorical
      config: { categories: [EUR, USD, GBP] }

Column keys: name and prompt (required), outputType (text_quote, number, date, boolean,
categorical, list_scalar, image, image_list; default text_quote), config (a mapping, sent as
a JSON string), creditRate (4-40), isCompositional (true/false). A column the service refuses
prints its message and the new table is archived (exit 1).

Prints the table id and its columns; --json prints {table, columns}. Other commands take the
table by id (rev_…) or by name.`,
    run: tableCreateCommand,
  },
  {
    name: 'tables list',
    summary: 'list the tables of the workspace (JSON)',
    options: {},
    help: `Usage: folio tables list [WORKSPACE_ID]

Prints the service's JSON response for GET /v2/workspaces/:ws/tables (workspace: the argument,
else --workspace, else the API key's own).`,
    run: tablesListCommand,
  },
  {
    name: 'rows add',
    summary: 'add files (or bundles) to a table as rows',
    options: { 'all-files': { type: 'boolean' } },
    help: `Usage: folio rows add <table> <fileIds...>
       folio rows add <table> --all-files

Adds one row per file (ds_…) or bundle (bndl_…). A subject already in the table is left as is.
<table> is an id (rev_…) or a table name.

  --all-files        every file of the workspace, oldest first

Prints how many rows were added; --json prints {tableId, added: [rows], alreadyThere: [ids]}.`,
    run: rowsAddCommand,
  },
  {
    name: 'run',
    summary: 'preview the cost, confirm, run a table; --wait with a progress bar',
    options: {
      rows: { type: 'string', multiple: true },
      columns: { type: 'string', multiple: true },
      wait: { type: 'boolean' },
      yes: { type: 'boolean', short: 'y' },
    },
    help: `Usage: folio run <table> [--rows IDS] [--columns IDS|NAMES] [--wait] [--yes]

Shows what the run would cost (GET …/runs/preview: cells and an upper bound in credits, and
the balance), asks to confirm, starts it, and with --wait follows it with a bar of cells.
Without --rows and --columns the whole table runs; given both, they add up (every cell of
those rows plus every cell of those columns). <table> is an id (rev_…) or a table name.

  --rows IDS         row ids (rrow_…), or file/bundle ids of rows; comma-separated or repeated
  --columns IDS      column ids (rcol_…) or column names; comma-separated or repeated
  --wait             wait until the run finishes; prints cells answered and failed and the
                     credits spent (balance before minus after). Ctrl-C stops waiting only
  -y, --yes          start without asking. Needed when stdin is not a terminal: without it
                     the run is refused (exit 2) after the preview is shown

Exit 1 when the service refuses the run (402: no credits or spend cap, with its message) or,
with --wait, when the run ends ERROR or CANCELED. --json prints {preview, run, cells, ...}.`,
    run: runCommand,
  },
  {
    name: 'export',
    summary: 'export a table as CSV, XLSX or JSON',
    options: {
      format: { type: 'string' },
      output: { type: 'string', short: 'o' },
      include: { type: 'string', multiple: true },
      bom: { type: 'boolean' },
    },
    help: `Usage: folio export <table> --format csv|xlsx|json [-o FILE] [--include LIST] [--bom]

Streams GET /v2/workspaces/:ws/tables/:tableId/export: one row per table row, one column per
live column, a human override winning over the extracted value. <table> is an id or a name.

  --format F         csv (RFC 4180), xlsx (dates and numbers typed), or json
  -o, --output FILE  write to FILE (written whole or not at all); default stdout (not for
                     xlsx on a terminal)
  --include LIST     add per-column confidence, citations ("page: quote") and/or status
                     columns: comma-separated from confidence, citations, status
  --bom              csv only: start with a UTF-8 byte order mark, for Excel

With -o, --json prints {tableId, format, file, bytes}.`,
    run: exportCommand,
  },
  {
    name: 'api',
    summary: 'call any endpoint with the API key; prints the response body',
    options: { data: { type: 'string' } },
    help: `Usage: folio api METHOD PATH [--data JSON]

Calls any endpoint with the API key and prints the response body as is, e.g.
  folio api GET /v2/me
  folio api POST /v2/workspaces/wks_…/tables --data '{"name":"Invoices"}'`,
    run: apiCommand,
  },
  {
    name: 'workspace create',
    summary: 'create a workspace',
    admin: true,
    options: {
      name: { type: 'string' },
      tier: { type: 'string' },
      credits: { type: 'string' },
      'spend-cap': { type: 'string' },
    },
    help: `Usage: folio workspace create --name NAME [--tier starter|bronze|silver|gold] [--credits N] [--spend-cap N]

Creates a workspace (admin API, needs ADMIN_TOKEN); prints the service's JSON response.`,
    run: adminCommand,
  },
  {
    name: 'workspace show',
    summary: 'show a workspace (balance, tier, spend)',
    admin: true,
    options: {},
    help: `Usage: folio workspace show WORKSPACE_ID

Shows a workspace: tier, balance, spend cap, month spend (admin API, needs ADMIN_TOKEN).`,
    run: adminCommand,
  },
  {
    name: 'workspace update',
    summary: 'rename a workspace, change its tier or spend cap',
    admin: true,
    options: { name: { type: 'string' }, tier: { type: 'string' }, 'spend-cap': { type: 'string' } },
    help: `Usage: folio workspace update WORKSPACE_ID [--name NAME] [--tier TIER] [--spend-cap N|none]

Changes a workspace (admin API, needs ADMIN_TOKEN); --spend-cap none removes the cap.`,
    run: adminCommand,
  },
  {
    name: 'credits grant',
    summary: 'add (or, negative, remove) credits',
    admin: true,
    options: {},
    help: `Usage: folio credits grant WORKSPACE_ID AMOUNT

Adds AMOUNT credits to the workspace; a negative AMOUNT removes credits (the balance never goes
below 0). Admin API, needs ADMIN_TOKEN.`,
    run: adminCommand,
  },
  {
    name: 'key create',
    summary: 'issue an API key (shown once)',
    admin: true,
    options: { level: { type: 'string' }, 'expires-at': { type: 'string' } },
    help: `Usage: folio key create WORKSPACE_ID [--level read|read_write] [--expires-at EPOCH_MS]

Issues an API key for the workspace (default level read_write); the secret is in the response
and is shown once. Admin API, needs ADMIN_TOKEN.`,
    run: adminCommand,
  },
  {
    name: 'key revoke',
    summary: 'revoke an API key',
    admin: true,
    options: {},
    help: `Usage: folio key revoke KEY_ID

Revokes an API key (wkskey_…): it answers 401 from then on. Admin API, needs ADMIN_TOKEN.`,
    run: adminCommand,
  },
];

export const OVERVIEW = `Usage: folio <command> [options]

Turns documents into tables: upload them, describe the columns, run, export.

Commands:
${COMMANDS.filter((c) => !c.admin)
  .map((c) => `  ${c.name.padEnd(18)} ${c.summary}`)
  .join('\n')}

Admin commands (need ADMIN_TOKEN; print the service's JSON):
${COMMANDS.filter((c) => c.admin)
  .map((c) => `  ${c.name.padEnd(18)} ${c.summary}`)
  .join('\n')}

Run \`folio <command> --help\` for a command's options.

From a folder of PDFs to a spreadsheet:
  folio upload ./invoices --wait
  folio table create --name Invoices --columns columns.yaml
  folio rows add Invoices --all-files && folio run Invoices --wait --yes
  folio export Invoices --format xlsx -o invoices.xlsx

${GLOBAL_HELP}

Environment:
  FOLIO_API_KEY      the API key (x-api-key) for every command but the admin ones
  ADMIN_TOKEN        the admin token (x-admin-token) for the admin commands
  FOLIO_URL          the service's address; FOLIO_WORKSPACE the workspace
  NO_COLOR           set: no progress bars

Output: data on stdout, progress and messages on stderr. Progress bars are drawn only when
stdout and stderr are terminals and NO_COLOR is unset; otherwise progress is plain lines.
Exit status: 0 success; 1 the service refused (its message is printed as is) or a run or
ingest job failed; 2 a usage error (the usage is printed on stderr).
`;

/** A command's full help: its own text, then the global options. */
export function commandHelp(c: Command): string {
  return `${c.help}\n\n${GLOBAL_HELP}\n`;
}
