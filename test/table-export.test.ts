/**
 * Issue 16 item 1: GET /v2/workspaces/:ws/tables/:tableId/export?format=csv|xlsx|json, through
 * real HTTP against a real database. Each format is compared with GET table (interface.md 4.1):
 * one row per live row, one column per live column, the human override winning over the
 * extracted value (2.4, 4.4), D3's blanks for cells that are not SUCCESS. XLSX is read back
 * with exceljs (numbers as numbers, dates as dates), CSV with a strict RFC 4180 reader.
 * Also item 6: validation messages name the field and what it allows.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/infra/ids.ts';
import { insertCell } from '../src/infra/repos/cells.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import type { Json } from './helpers/runs.ts';
import { seedFile } from './helpers/seed.ts';

/** RFC 4180, strictly: every record ends CRLF, quotes only around whole fields, no bare CR or LF outside them. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else {
        quoted = false;
        wasQuoted = true;
        if (text[i + 1] !== undefined && text[i + 1] !== ',' && text[i + 1] !== '\r')
          throw new Error(`text after a closing quote at ${i}`);
      }
    } else if (ch === '"') {
      if (field !== '' || wasQuoted) throw new Error(`quote inside an unquoted field at ${i}`);
      quoted = true;
    } else if (ch === ',') {
      row.push(field);
      field = '';
      wasQuoted = false;
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      wasQuoted = false;
      i++;
    } else if (ch === '\r' || ch === '\n') {
      throw new Error(`bare line break outside quotes at ${i}`);
    } else field += ch;
  }
  if (quoted || field !== '' || row.length > 0) throw new Error('last record is not ended by CRLF');
  return rows;
}

describe('table export (issue 16)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let tableId: string;
  let tbase: string;
  const col: Record<string, string> = {};
  const row: string[] = [];
  let fileA: string;

  const exportUrl = (query: string, table = tableId) =>
    `${h.baseUrl}/v2/workspaces/${ws.id}/tables/${table}/export${query ? `?${query}` : ''}`;
  const download = async (query: string, key = ws.readKey, table = tableId) => {
    const r = await fetch(exportUrl(query, table), { headers: { 'x-api-key': key } });
    return { r, bytes: Buffer.from(await r.arrayBuffer()) };
  };
  const csv = async (query = '') => {
    const { r, bytes } = await download(`format=csv${query ? `&${query}` : ''}`);
    expect(r.status, bytes.toString()).toBe(200);
    return parseCsv(bytes.toString('utf8'));
  };

  /** A cell as a run leaves it, with citations and a confidence. */
  async function seed(
    rowId: string,
    columnId: string,
    value: unknown,
    opts: { status?: 'SUCCESS' | 'ERROR'; confidence?: number; citations?: unknown[] } = {},
  ): Promise<string> {
    const id = newId('rcel');
    const now = Date.now();
    await insertCell(h.db, {
      id,
      table_id: tableId,
      row_id: rowId,
      column_id: columnId,
      status: opts.status ?? 'SUCCESS',
      status_text: opts.status === 'ERROR' ? 'nothing found' : null,
      block_reason: null,
      value,
      citations: opts.citations ?? [],
      confidence: opts.confidence ?? 0.5,
      human_override: null,
      column_version: 1,
      bundle_version: 1,
      run_id: null,
      created_at: now,
      updated_at: now,
    });
    return id;
  }
  const override = async (cellId: string, value: unknown) => {
    const r = await h.request('PUT', `${tbase}/cells/${cellId}/override`, { key: ws.key, body: { value } });
    expect(r.statusCode, r.body).toBe(200);
  };

  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    const call = async (method: 'POST' | 'DELETE', url: string, body?: unknown) => {
      const r = await h.request(method, url, { key: ws.key, body });
      expect(r.statusCode, r.body).toBe(200);
      return r.json().data as Json;
    };
    tableId = (await call('POST', `/v2/workspaces/${ws.id}/tables`, { name: 'Q3: "Verträge" / review' })).id;
    tbase = `/v2/workspaces/${ws.id}/tables/${tableId}`;
    const columns: [string, string, string?][] = [
      ['Amount', 'number'],
      ['Signed', 'date'],
      ['Party', 'text_quote'],
      ['Renewal', 'boolean'],
      ['Kind', 'categorical', JSON.stringify({ categories: ['Lease', 'Sale'] })],
      ['Names', 'list_scalar'],
      ['Logo', 'image'],
      ['Old', 'text_quote'],
      ['Document', 'text_quote'],
    ];
    for (const [name, outputType, config] of columns) {
      col[name] = (
        await call('POST', `${tbase}/columns`, {
          name,
          prompt: `${name}?`,
          outputType,
          config: config ?? null,
        })
      ).id;
    }
    fileA = await seedFile(h.db, ws.id, 'alpha.pdf');
    const fileB = await seedFile(h.db, ws.id, 'tricky, "quoted" name.pdf');
    const bundle = (
      await call('POST', `/v2/workspaces/${ws.id}/bundles`, { name: 'Bundle B', fileIds: [fileA] })
    ).id;
    const gone = await seedFile(h.db, ws.id, 'gone.pdf');
    for (const [subjectType, subjectId] of [
      ['file', fileA],
      ['file', fileB],
      ['bundle', bundle],
      ['file', gone],
    ]) {
      row.push((await call('POST', `${tbase}/rows`, { subjectType, subjectId })).id);
    }
    const [r0, r1, r2, r3] = row as [string, string, string, string];

    const box = [0.1, 0.2, 0.3, 0.25];
    const amount0 = await seed(
      r0,
      col.Amount!,
      { type: 'number', value: 1250.5 },
      {
        confidence: 0.91,
        citations: [{ fileId: fileA, page: 2, quote: 'Total: 1,250.50', box }],
      },
    );
    await override(amount0, { type: 'number', value: 99 });
    await seed(r1, col.Amount!, { type: 'number', value: -3 }, { confidence: 0.4 });
    await seed(
      r0,
      col.Signed!,
      { type: 'date', value: '2024-02-29' },
      {
        confidence: 0.75,
        citations: [
          { fileId: fileA, page: 1, quote: 'dated 29 February 2024', box },
          { fileId: fileA, page: 3, quote: 'signed "in full"', box: null },
        ],
      },
    );
    await seed(r2, col.Signed!, { type: 'date', value: '2020-01-01' }, { status: 'ERROR' });
    await seed(r0, col.Party!, { type: 'text_quote', value: 'Acme Ltd' });
    await seed(r1, col.Party!, { type: 'text_quote', value: 'Smith, "Jr."\r\nline two' });
    await seed(r2, col.Party!, { type: 'text_quote', value: '=HYPERLINK("http://example.com")' });
    await seed(r0, col.Renewal!, { type: 'boolean', value: true });
    const renewal1 = await seed(r1, col.Renewal!, { type: 'boolean', value: false });
    await override(renewal1, { type: 'boolean', value: null });
    await seed(r0, col.Kind!, { type: 'categorical', value: 'Lease' });
    await seed(r0, col.Names!, { type: 'list_scalar', value: ['Acme Ltd', 'Beta GmbH'] });
    await seed(r0, col.Logo!, [{ fileId: fileA, page: 1, box, caption: 'red logo' }]);
    const logo1 = await seed(r1, col.Logo!, [{ fileId: fileB, page: 4, box: null, caption: 'page 4' }]);
    await override(logo1, { type: 'text_quote', value: 'no logo' });
    await seed(r0, col.Old!, { type: 'text_quote', value: 'hidden' });
    await seed(r0, col.Document!, { type: 'text_quote', value: 'doc col' });
    await seed(r3, col.Party!, { type: 'text_quote', value: 'archived row' });
    await call('DELETE', `${tbase}/columns/${col.Old}`);
    await call('DELETE', `${tbase}/rows/${r3}`);
  });
  afterAll(() => h?.close());

  const HEADERS = [
    'Document',
    'Row id',
    'Amount',
    'Signed',
    'Party',
    'Renewal',
    'Kind',
    'Names',
    'Logo',
    'Document (2)',
  ];

  it('4.1, 2.4, 4.4, issue 16: CSV has one row per live row and one column per live column; the override wins', async () => {
    const [r0, r1, r2] = row;
    expect(await csv()).toEqual([
      HEADERS,
      [
        'alpha.pdf',
        r0,
        '99',
        '2024-02-29',
        'Acme Ltd',
        'true',
        'Lease',
        'Acme Ltd; Beta GmbH',
        'p.1: "red logo"',
        'doc col',
      ],
      ['tricky, "quoted" name.pdf', r1, '-3', '', 'Smith, "Jr."\r\nline two', '', '', '', 'no logo', ''],
      ['Bundle B', r2, '', '', `'=HYPERLINK("http://example.com")`, '', '', '', '', ''],
    ]);
  });

  it('issue 16: CSV is RFC 4180 on the wire: CRLF, quoted fields, doubled quotes; bom=true adds a UTF-8 BOM', async () => {
    const plain = await download('format=csv');
    expect(plain.r.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present');
    const text = plain.bytes.toString('utf8');
    expect(text.startsWith('Document,Row id,Amount,')).toBe(true);
    expect(text).toContain('\r\n"tricky, ""quoted"" name.pdf",');
    expect(text).toContain(',"Smith, ""Jr.""\r\nline two",');
    expect(text).toContain(`,"'=HYPERLINK(""http://example.com"")",`);
    expect(text.endsWith('\r\n')).toBe(true);
    // Every line break outside a quoted field is CRLF.
    expect(text.replace(/"(?:[^"]|"")*"/g, '').match(/[^\r]\n|\r[^\n]/g)).toBeNull();
    expect(plain.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);

    const bom = await download('format=csv&bom=true');
    expect(bom.bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(bom.bytes.subarray(3).equals(plain.bytes)).toBe(true);
    // format defaults to csv.
    expect((await download('')).bytes.equals(plain.bytes)).toBe(true);
  });

  it('4.1, 2.4: every format agrees with GET table: live rows in order, live columns, override or SUCCESS value', async () => {
    const body = (await h.request('GET', tbase, { key: ws.readKey })).json().data;
    const liveColumns = (body.columns as Json[]).filter((c) => c.archivedAt === null);
    const liveRows = (body.rows as Json[]).filter((r) => r.archivedAt === null);
    const cellAt = new Map((body.cells as Json[]).map((c) => [`${c.rowId}|${c.columnId}`, c]));
    const shown = (r: Json, c: Json) => {
      const cell = cellAt.get(`${r.id}|${c.id}`);
      if (!cell) return null;
      const v = cell.humanOverride ?? cell.value;
      return v === null ? null : Array.isArray(v) ? v : v.value;
    };
    const json = await download('format=json');
    expect(json.r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const objects = JSON.parse(json.bytes.toString('utf8')) as Json[];
    expect(objects.map((o) => o['Row id'])).toEqual(liveRows.map((r) => r.id));
    expect(Object.keys(objects[0]!)).toEqual(HEADERS);
    for (const [i, r] of liveRows.entries()) {
      const names = liveColumns.map((c, j) => (j === liveColumns.length - 1 ? 'Document (2)' : c.name));
      expect(names.map((n) => objects[i]![n])).toEqual(liveColumns.map((c) => shown(r, c)));
    }
    // The typed values, spelt out.
    expect(objects[0]).toEqual({
      Document: 'alpha.pdf',
      'Row id': row[0],
      Amount: 99,
      Signed: '2024-02-29',
      Party: 'Acme Ltd',
      Renewal: true,
      Kind: 'Lease',
      Names: ['Acme Ltd', 'Beta GmbH'],
      Logo: [{ fileId: fileA, page: 1, box: [0.1, 0.2, 0.3, 0.25], caption: 'red logo' }],
      'Document (2)': 'doc col',
    });
    expect(objects[1]).toMatchObject({ Amount: -3, Signed: null, Renewal: null, Logo: 'no logo' });
    expect(objects[2]).toMatchObject({ Document: 'Bundle B', Signed: null });
    // The CSV holds the same rows, the same ids and the same headers.
    const rows = await csv();
    expect(rows.slice(1).map((r) => r[1])).toEqual(liveRows.map((r) => r.id));
  });

  it('4.1, 2.4, issue 16: XLSX read back with exceljs: numbers are numbers, dates are dates, booleans booleans', async () => {
    const { r, bytes } = await download('format=xlsx');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    expect(book.worksheets).toHaveLength(1);
    const sheet = book.worksheets[0]!;
    expect(sheet.name).toBe('Q3 "Verträge" review');
    const values = (i: number) => (sheet.getRow(i).values as unknown[]).slice(1);
    expect(values(1)).toEqual(HEADERS);
    const [r0, r1, r2] = row;
    const first = values(2);
    expect(first).toEqual([
      'alpha.pdf',
      r0,
      99,
      new Date(Date.UTC(2024, 1, 29)),
      'Acme Ltd',
      true,
      'Lease',
      'Acme Ltd; Beta GmbH',
      'p.1: "red logo"',
      'doc col',
    ]);
    expect(typeof first[2]).toBe('number');
    expect(first[3]).toBeInstanceOf(Date);
    expect(sheet.getRow(2).getCell(4).numFmt).toBe('yyyy-mm-dd');
    const second = sheet.getRow(3);
    expect(second.getCell(1).value).toBe('tricky, "quoted" name.pdf');
    expect(second.getCell(2).value).toBe(r1);
    expect(second.getCell(3).value).toBe(-3);
    expect(second.getCell(4).value).toBeNull();
    // XML reads a CRLF inside text as LF (XML 1.0 end-of-line handling), as Excel writes a line break.
    expect(second.getCell(5).value).toBe('Smith, "Jr."\nline two');
    expect(second.getCell(9).value).toBe('no logo');
    // Text is text in XLSX: no formula, no leading quote.
    expect(sheet.getRow(4).getCell(2).value).toBe(r2);
    expect(sheet.getRow(4).getCell(5).value).toBe('=HYPERLINK("http://example.com")');
    expect(sheet.rowCount).toBe(4);
  });

  it('issue 16: include=confidence,citations,status adds three columns after each column', async () => {
    const rows = await csv('include=status,confidence,citations');
    const head = rows[0]!;
    expect(head.slice(0, 10)).toEqual([
      'Document',
      'Row id',
      'Amount',
      'Amount confidence',
      'Amount citations',
      'Amount status',
      'Signed',
      'Signed confidence',
      'Signed citations',
      'Signed status',
    ]);
    expect(head).toHaveLength(2 + 8 * 4);
    const get = (r: number, name: string) => rows[r]![head.indexOf(name)];
    // The override is shown; confidence and citations stay those of the extracted answer.
    expect(get(1, 'Amount')).toBe('99');
    expect(get(1, 'Amount confidence')).toBe('0.91');
    expect(get(1, 'Amount citations')).toBe('p.2: "Total: 1,250.50"');
    expect(get(1, 'Amount status')).toBe('OVERRIDDEN');
    expect(get(1, 'Signed citations')).toBe('p.1: "dated 29 February 2024"; p.3: "signed "in full""');
    expect(get(1, 'Signed status')).toBe('SUCCESS');
    expect(get(2, 'Signed status')).toBe('NOT_STARTED');
    // D3: an ERROR cell has no value, confidence or citations.
    expect(get(3, 'Signed')).toBe('');
    expect(get(3, 'Signed confidence')).toBe('');
    expect(get(3, 'Signed citations')).toBe('');
    expect(get(3, 'Signed status')).toBe('ERROR');
    expect(get(2, 'Renewal status')).toBe('OVERRIDDEN');

    const json = JSON.parse(
      (await download('format=json&include=confidence,citations')).bytes.toString(),
    ) as Json[];
    expect(json[0]!['Signed confidence']).toBe(0.75);
    expect(json[0]!['Signed citations']).toEqual([
      { fileId: fileA, page: 1, quote: 'dated 29 February 2024', box: [0.1, 0.2, 0.3, 0.25] },
      { fileId: fileA, page: 3, quote: 'signed "in full"', box: null },
    ]);
    expect(json[2]!['Signed confidence']).toBeNull();
    expect(json[2]!['Signed citations']).toEqual([]);
    expect(Object.keys(json[0]!)).not.toContain('Amount status');

    const { bytes } = await download('format=xlsx&include=confidence');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(bytes as unknown as ArrayBuffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(4).value).toBe('Amount confidence');
    expect(sheet.getRow(2).getCell(4).value).toBeCloseTo(0.91, 5);
  });

  it('4.2, issue 16: archived columns and archived rows are left out', async () => {
    const rows = await csv('include=status');
    expect(rows[0]).not.toContain('Old');
    expect(rows.flat()).not.toContain('hidden');
    expect(rows.flat()).not.toContain('archived row');
    expect(rows.flat()).not.toContain('gone.pdf');
    expect(rows).toHaveLength(4);
  });

  it('issue 16: Content-Disposition is an attachment named after the table, sanitised', async () => {
    for (const format of ['csv', 'xlsx', 'json']) {
      const { r } = await download(`format=${format}`);
      expect(r.headers.get('content-disposition')).toBe(
        `attachment; filename="Q3_ _Vertr_ge_ _ review.${format}"; filename*=UTF-8''Q3_%20_Vertr%C3%A4ge_%20_%20review.${format}`,
      );
      expect(r.headers.get('cache-control')).toBe('private, no-store');
    }
  });

  it('5, 7: Read access (a read key may export); 401 without a key, 404 for an unknown table or another workspace', async () => {
    expect((await download('format=csv', ws.readKey)).r.status).toBe(200);
    expect((await download('format=csv', ws.key)).r.status).toBe(200);
    const none = await fetch(exportUrl('format=csv'));
    expect(none.status).toBe(401);
    expect(none.headers.get('content-type')).toMatch(/^text\/plain/);
    const unknown = await download('format=csv', ws.readKey, 'rev_unknown00000000000');
    expect(unknown.r.status).toBe(404);
    const other = await h.workspace();
    const foreign = await fetch(exportUrl('format=csv'), { headers: { 'x-api-key': other.readKey } });
    expect(foreign.status).toBe(404);
  });

  it('7, issue 16 item 6: a bad format, include or bom answers 400 naming the field and what is allowed', async () => {
    const bad = async (query: string) => {
      const { r, bytes } = await download(query);
      expect(r.status).toBe(400);
      return (JSON.parse(bytes.toString()) as Json).error;
    };
    expect(await bad('format=pdf')).toBe('querystring.format must be one of csv, xlsx, json');
    expect(await bad('format=csv&include=confidence,score')).toBe(
      'querystring.include must be a comma-separated list of confidence, citations, status; not "score".',
    );
    expect(await bad('bom=maybe')).toBe('querystring.bom must be a boolean (true or false)');
  });

  it('4.1, issue 16: a table of many pages streams every row once, in GET table order', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'big' } })
    ).json().data.id as string;
    const base = `/v2/workspaces/${ws.id}/tables/${t}`;
    const c = (
      await h.request('POST', `${base}/columns`, {
        key: ws.key,
        body: { name: 'N', prompt: 'n?', outputType: 'number' },
      })
    ).json().data.id as string;
    // 1,201 rows over one column: more than two pages of 500; equal sort orders exercise the tie-breaks.
    const now = Date.now();
    await h.db.query(
      `INSERT INTO files (id, workspace_id, type, file_name, file_ext, mime_type, file_size, item_count, state, created_at, updated_at)
       SELECT 'ds_big' || lpad(i::text, 5, '0'), $1, 'doc', 'doc-' || i || '.pdf', 'pdf', 'application/pdf', 1, 1, 'ready', $2, $2
         FROM generate_series(1, 1201) i`,
      [ws.id, now],
    );
    await h.db.query(
      `INSERT INTO table_rows (id, table_id, subject_type, subject_id, sort_order, created_at, updated_at)
       SELECT 'rrow_big' || md5(i::text), $1, 'file', 'ds_big' || lpad(i::text, 5, '0'), i / 3, $2::bigint + (i % 2), $2
         FROM generate_series(1, 1201) i`,
      [t, now],
    );
    await h.db.query(
      `INSERT INTO cells (id, table_id, row_id, column_id, status, value, citations, confidence, column_version, bundle_version, created_at, updated_at)
       SELECT 'rcel_' || substr(md5(r.id), 1, 20), $1, r.id, $2, 'SUCCESS',
              jsonb_build_object('type', 'number', 'value', r.sort_order), '[]', 0.5, 1, 1, $3, $3
         FROM table_rows r WHERE r.table_id = $1`,
      [t, c, now],
    );
    const body = (await h.request('GET', base, { key: ws.readKey })).json().data;
    const { r, bytes } = await download('format=csv', ws.readKey, t);
    expect(r.headers.get('transfer-encoding')).toBe('chunked');
    const rows = parseCsv(bytes.toString());
    expect(rows).toHaveLength(1202);
    expect(rows.slice(1).map((x) => x[1])).toEqual((body.rows as Json[]).map((x) => x.id));
    const sortOf = new Map((body.rows as Json[]).map((x) => [x.id, String(x.sortOrder)]));
    for (const x of rows.slice(1)) expect(x[2]).toBe(sortOf.get(x[1]!));
    const json = JSON.parse((await download('format=json', ws.readKey, t)).bytes.toString()) as Json[];
    expect(json).toHaveLength(1201);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await download('format=xlsx', ws.readKey, t)).bytes as unknown as ArrayBuffer);
    expect(book.worksheets[0]!.rowCount).toBe(1202);
  });

  it('4.1: an empty table exports its header only; JSON an empty array', async () => {
    const t = (
      await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'empty' } })
    ).json().data.id as string;
    expect((await download('format=csv', ws.readKey, t)).bytes.toString()).toBe('Document,Row id\r\n');
    expect(JSON.parse((await download('format=json', ws.readKey, t)).bytes.toString())).toEqual([]);
  });
});

describe('validation messages a person can act on (issue 16 item 6)', () => {
  let h: Harness;
  let ws: TestWorkspace;
  let tbase: string;
  beforeAll(async () => {
    h = await startHarness();
    ws = await h.workspace();
    const t = await h.request('POST', `/v2/workspaces/${ws.id}/tables`, { key: ws.key, body: { name: 'T' } });
    tbase = `/v2/workspaces/${ws.id}/tables/${t.json().data.id}`;
  });
  afterAll(() => h?.close());

  const error = async (method: 'POST' | 'PATCH' | 'GET', url: string, body?: unknown) => {
    const r = await h.request(method, url, { key: ws.key, body });
    expect(r.statusCode, r.body).toBe(400);
    return r.json().error as string;
  };

  it('2.2, 7: an unknown outputType names every allowed value', async () => {
    expect(await error('POST', `${tbase}/columns`, { name: 'x', prompt: 'p?', outputType: 'list' })).toBe(
      'body.outputType must be one of text_quote, number, date, boolean, categorical, list_scalar, image, image_list',
    );
    // Not a string at all: the same sentence, once.
    expect(await error('POST', `${tbase}/columns`, { name: 'x', prompt: 'p?', outputType: 5 })).toBe(
      'body.outputType must be one of text_quote, number, date, boolean, categorical, list_scalar, image, image_list',
    );
  });

  it('2.1, 7: a name too long says the limit and the length sent', async () => {
    expect(await error('POST', `/v2/workspaces/${ws.id}/tables`, { name: 'x'.repeat(130) })).toBe(
      'body.name must be at most 120 characters long (it has 130)',
    );
    expect(await error('POST', `/v2/workspaces/${ws.id}/tables`, { name: '' })).toBe(
      'body.name must not be empty',
    );
  });

  it('2.1, 2.2, 7: wrong types, a missing field and a number out of range, each named', async () => {
    expect(await error('POST', `/v2/workspaces/${ws.id}/tables`, { name: 12, color: 7 })).toBe(
      'body.name must be a string; body.color must be a string or null',
    );
    expect(await error('POST', `/v2/workspaces/${ws.id}/tables`, {})).toBe('body.name is required');
    expect(await error('POST', `${tbase}/columns`, { name: 'x', prompt: 'p?', creditRate: 3 })).toBe(
      'body.creditRate must be >= 4 (4 to 40)',
    );
    expect(await error('POST', `${tbase}/columns`, { name: 'x', prompt: 'p?', isCompositional: 'yes' })).toBe(
      'body.isCompositional must be a boolean (true or false)',
    );
    expect(await error('POST', `${tbase}/rows`, { subjectType: 'folder', subjectId: 'ds_x' })).toBe(
      'body.subjectType must be one of file, bundle',
    );
    expect(await error('POST', `${tbase}/runs`, { rowIds: 'rrow_a' })).toBe('body.rowIds must be an array');
  });
});
