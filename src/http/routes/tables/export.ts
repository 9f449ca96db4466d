import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import {
  EXPORT_EXTRAS,
  EXPORT_FORMATS,
  type ExportFormat,
  exportFileName,
  parseExportInclude,
  readTableExport,
  type TableExport,
} from '../../../domain/table-export.ts';
import { csvChunks, jsonChunks, writeXlsx } from '../../../domain/table-export-formats.ts';
import type { App, AppContext } from '../../context.ts';
import { TableParams } from '../../kit/params.ts';
import { keySecurity } from '../../kit/security.ts';
import { Type } from '../../schema.ts';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  json: 'application/json; charset=utf-8',
};

const schema = {
  tags: ['tables'],
  summary: 'Export a table as CSV, XLSX or JSON (streamed): one row per live row, one column per live column',
  description:
    'A download (Content-Disposition: attachment, named after the table), streamed: the table is read in one' +
    ' snapshot a page of rows at a time, so no size of table is held in memory. One row per live (not archived)' +
    ' table row, in table order, led by `Document` (the file name or the bundle name) and `Row id`; then one' +
    ' column per live column in column order, headed by the column name. Each cell holds what the table shows:' +
    ' the human override when there is one, else the extracted value of a SUCCESS cell, else empty (null in JSON).' +
    ' Numbers stay numbers and dates ISO `YYYY-MM-DD` (real dates in XLSX), yes/no are booleans, a list is its' +
    ' items joined by `; ` (an array in JSON), a picture its pages and captions (its regions in JSON).' +
    ' `include` adds, after each column, `<name> confidence` (0-1, of the extracted answer), `<name> citations`' +
    ' (`p.2: "quote"; ...`, an array of citations in JSON) and `<name> status` (the cell status, `OVERRIDDEN`' +
    ' where a person set the value). CSV is RFC 4180 (CRLF, quoted fields, quotes doubled; text that a' +
    " spreadsheet would read as a formula gets a leading `'`), `bom=true` prepends a UTF-8 byte order mark for" +
    ' Excel. A header name used twice gets ` (2)`. Spec: interface.md 4.1, 2.4, 4.4.',
  security: keySecurity,
  params: TableParams,
  querystring: Type.Object({
    format: Type.Optional(
      Type.Union([Type.Literal('csv'), Type.Literal('xlsx'), Type.Literal('json')], {
        default: 'csv',
        description: `${EXPORT_FORMATS.join(', ')}; csv when left out`,
      }),
    ),
    include: Type.Optional(
      Type.String({
        maxLength: 200,
        description: `comma-separated extras per column: ${EXPORT_EXTRAS.join(', ')}`,
      }),
    ),
    bom: Type.Optional(
      Type.Boolean({ default: false, description: 'CSV: start with a UTF-8 byte order mark (for Excel)' }),
    ),
  }),
  response: {
    200: {
      description: 'The file, streamed.',
      content: {
        'text/csv': { schema: Type.String() },
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': {
          schema: Type.String({ format: 'binary' }),
        },
        'application/json': { schema: Type.Array(Type.Record(Type.String(), Type.Unknown())) },
      },
    },
  },
};

/** RFC 5987 `filename*` value: percent-encoded UTF-8. */
function rfc5987(s: string): string {
  return encodeURIComponent(s).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The generator's text as a byte stream; the export is released however the stream ends. */
function textStream(chunks: AsyncGenerator<string>, exp: TableExport): Readable {
  async function* released() {
    try {
      yield* chunks;
    } finally {
      await exp.close();
    }
  }
  return Readable.from(released(), { objectMode: false });
}

export function exportTableRoute(app: App, ctx: AppContext): void {
  app.get(
    '/v2/workspaces/:workspaceId/tables/:tableId/export',
    { config: { access: 'read' }, schema },
    async (request, reply) => {
      const { workspaceId, tableId } = request.params;
      const format: ExportFormat = request.query.format ?? 'csv';
      const opts = { include: parseExportInclude(request.query.include), bom: request.query.bom === true };
      // Everything that can refuse (404) happens here, before the first byte: the answer is
      // then a plain JSON error, not a broken download.
      const exp = await readTableExport(
        ctx.db,
        workspaceId,
        tableId,
        path.join(ctx.config.dataDir, 'tmp'),
        opts.include,
      );
      const raw = reply as unknown as FastifyReply;
      raw.raw.once('close', () => void exp.close());
      const name = exportFileName(exp.table.name, format);
      raw
        .header('content-type', CONTENT_TYPES[format])
        .header(
          'content-disposition',
          `attachment; filename="${name.ascii}"; filename*=UTF-8''${rfc5987(name.utf8)}`,
        )
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      if (format === 'xlsx') {
        const out = new PassThrough();
        writeXlsx(exp, opts, out)
          .catch((err: unknown) => {
            if (!out.destroyed) {
              request.log.error({ err }, 'table export failed while streaming');
              out.destroy(err as Error);
            }
          })
          .finally(() => exp.close());
        return raw.send(out);
      }
      return raw.send(textStream(format === 'csv' ? csvChunks(exp, opts) : jsonChunks(exp, opts), exp));
    },
  );
}
