import { randomInt } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openEngine } from '../src/engine/open.ts';
import { createOpenAIEngine, type OpenAIEngineOptions } from '../src/engine/openai/engine.ts';
import type {
  AnswerEngine,
  Box,
  Citation,
  EngineAnswer,
  EngineColumn,
  EngineDocument,
  EnginePage,
  Region,
} from '../src/engine/types.ts';
import { loadConfig } from '../src/infra/config.ts';
import { openPdf } from '../src/ingest/pdf/document.ts';
import { makeTextPdf } from './fixtures/pdf.ts';

// ---------------------------------------------------------------------------------------
// A small OpenAI-compatible server. Its "model" reads the excerpts it is sent: it finds a
// "Label: value" line whose label the question names, and answers with the value typed
// by the schema it was given and the line as its quote. Nothing is hard-coded.

type Step = 'answer' | 'malformed' | '429' | '500' | 'hang' | '401-echo';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: {
      role: string;
      content: string | { type: string; text?: string; image_url?: { url: string } }[];
    }[];
    response_format?: { type: string; json_schema?: { name: string; strict: boolean; schema: JsonSchema } };
    temperature?: number;
  };
}

interface JsonSchema {
  properties: Record<string, JsonSchema & { enum?: string[]; anyOf?: { enum?: string[] }[] }>;
  items?: JsonSchema;
  [k: string]: unknown;
}

const MONTHS = 'january february march april may june july august september october november december'.split(
  ' ',
);

class FakeModel {
  server = http.createServer((req, res) => this.#handle(req, res));
  url = '';
  requests: Received[] = [];
  script: Step[] = [];
  fallback: Step = 'answer';
  delayMs = 0;
  /** Requests being answered now (a reset forgets those of earlier tests). */
  live = new Set<http.ServerResponse>();
  maxInFlight = 0;
  /** Adds a quote that no page holds; `only` sends it alone. */
  hallucinate: 'no' | 'extra' | 'only' = 'no';
  /** Answers 400 to a request with a temperature, as OpenAI does for reasoning models. */
  rejectTemperature = false;

  async start() {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  reset() {
    this.requests = [];
    this.script = [];
    this.fallback = 'answer';
    this.delayMs = 0;
    this.live = new Set();
    this.maxInFlight = 0;
    this.hallucinate = 'no';
    this.rejectTemperature = false;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }

  #handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const live = this.live;
    live.add(res);
    this.maxInFlight = Math.max(this.maxInFlight, live.size);
    res.on('close', () => live.delete(res));
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Received['body'];
      this.requests.push({ headers: req.headers, body });
      if (this.rejectTemperature && body.temperature !== undefined) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({ error: { message: "Unsupported value: 'temperature' does not support 0" } }),
        );
        return;
      }
      const step = this.script.shift() ?? this.fallback;
      if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
      const json = (status: number, payload: unknown, headers: Record<string, string> = {}) =>
        res
          .writeHead(status, { 'content-type': 'application/json', ...headers })
          .end(JSON.stringify(payload));
      switch (step) {
        case 'hang':
          return;
        case '429':
          return json(
            429,
            { error: { message: 'Rate limit reached', type: 'rate_limit' } },
            { 'retry-after': '1' },
          );
        case '500':
          return json(500, { error: { message: 'the upstream model crashed' } });
        case '401-echo':
          // Some proxies echo what they were sent.
          return json(401, {
            error: { message: `Incorrect API key provided: ${req.headers.authorization}` },
          });
        case 'malformed':
          return json(200, completion('Sure! Here is the answer: {"value": 12, "quotes": [', body.model));
        case 'answer':
          return json(200, completion(JSON.stringify(this.#answer(body)), body.model));
      }
    });
  }

  #answer(body: Received['body']) {
    const user = body.messages.find((m) => m.role === 'user')!;
    const text =
      typeof user.content === 'string' ? user.content : user.content.map((p) => p.text ?? '').join('\n');
    const schema = body.response_format!.json_schema!.schema;
    const type = body.response_format!.json_schema!.name.replace(/^folio_/, '');
    const question = text.slice(text.lastIndexOf('Question: ') + 'Question: '.length).toLowerCase();
    const withDocument = 'document' in (schema.properties.quotes!.items!.properties ?? {});

    if (type === 'image' || type === 'image_list') {
      const words = new Set(question.match(/[a-z]{4,}/g) ?? []);
      let best: { id: string; near: string; hits: number } | null = null;
      for (const m of text.matchAll(/^\[([^\]]+)\] .*?(?:text nearby: "(.*)")?$/gm)) {
        const near = m[2] ?? '';
        const hits = (near.toLowerCase().match(/[a-z]{4,}/g) ?? []).filter((w) => words.has(w)).length;
        if (hits > 0 && (!best || hits > best.hits)) best = { id: m[1]!, near, hits };
      }
      return {
        quotes: [],
        value: best ? [{ candidate: best.id, caption: best.near }] : [],
        confidence: 0.8,
      };
    }

    // Excerpts: "--- D1 page 2 ---" headers, then lines.
    let found: { label: string; value: string; line: string; doc: string; page: number } | null = null;
    let doc = '';
    let page = 0;
    for (const line of text.split('\n')) {
      const h = /^--- (D\d+) page (\d+) ---$/.exec(line);
      if (h) {
        doc = h[1]!;
        page = Number(h[2]);
        continue;
      }
      if (!page || line.startsWith('===')) continue;
      const m = /^([A-Za-z][A-Za-z ]*?): (.+)$/.exec(line.trim());
      if (m && question.includes(m[1]!.toLowerCase()) && (!found || m[1]!.length > found.label.length)) {
        found = { label: m[1]!, value: m[2]!, line: line.trim(), doc, page };
      }
    }
    let value: unknown = null;
    if (found) {
      const v = found.value;
      if (type === 'number') value = Number(v.replace(/[^\d.]/g, ''));
      else if (type === 'date') {
        const [, month, day, year] = /^(\w+) (\d+), (\d{4})$/.exec(v)!;
        value = `${year}-${String(MONTHS.indexOf(month!.toLowerCase()) + 1).padStart(2, '0')}-${day!.padStart(2, '0')}`;
      } else if (type === 'boolean') value = /^yes$/i.test(v);
      else if (type === 'categorical') {
        const options = schema.properties.value!.anyOf![0]!.enum!;
        // Answers in its own spelling: the engine must map it to the configured one.
        value = options.find((o) => o.toLowerCase() === v.toLowerCase())?.toLowerCase() ?? null;
      } else if (type === 'list_scalar') value = v.split(/,\s*/);
      else value = v;
    }
    const quote = (q: string, p: number, d: string) =>
      withDocument ? { document: d, page: p, quote: q } : { page: p, quote: q };
    const fake = quote(
      'The supplier guarantees delivery to the Moon base',
      found?.page ?? 1,
      found?.doc ?? 'D1',
    );
    const quotes = found ? [quote(found.line, found.page, found.doc)] : [];
    return {
      quotes:
        this.hallucinate === 'only' ? [fake] : this.hallucinate === 'extra' ? [...quotes, fake] : quotes,
      value: type === 'list_scalar' && value === null ? [] : value,
      confidence: 0.9,
    };
  }
}

function completion(content: string, model: string) {
  return {
    id: `chatcmpl-${randomInt(1e9)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

// ---------------------------------------------------------------------------------------
// Documents: real PDFs drawn by PDFium, read back as ingest reads them.

const FILLER = (
  'the parties agree that goods shall be delivered within the period stated in the schedule ' +
  'and that notice of any defect shall be given in writing without undue delay to the other ' +
  'side while warranty claims follow the terms of the framework contract signed last year'
).split(' ');

function filler(n: number): string[] {
  return Array.from({ length: n }, () =>
    Array.from({ length: 9 }, () => FILLER[randomInt(FILLER.length)]).join(' '),
  );
}

async function pdfDocument(
  fileId: string,
  pages: string[][],
  member: Partial<EngineDocument> = {},
): Promise<EngineDocument> {
  const pdf = await openPdf(await makeTextPdf(pages));
  try {
    const out: EnginePage[] = [];
    for (let i = 0; i < pdf.pageCount; i++) {
      out.push({
        page: i + 1,
        ...pdf.pageSize(i),
        text: pdf.text(i),
        words: pdf.words(i),
        images: [],
        ocr: false,
      });
    }
    return {
      fileId,
      fileName: `${fileId}.pdf`,
      pages: out,
      isPrimary: true,
      role: null,
      effectiveAt: null,
      sortOrder: 0,
      ...member,
    };
  } finally {
    pdf.close();
  }
}

const CATEGORIES = ['Paid', 'Unpaid', 'Overdue'];
const ITEMS = ['chairs', 'desks', 'lamps', 'shelves', 'monitors', 'cables'];

function randomInvoice() {
  const year = randomInt(2015, 2031);
  const month = randomInt(1, 13);
  const day = randomInt(1, 29);
  const cents = randomInt(100_000, 99_999_999);
  const amount = cents / 100;
  const items = ITEMS.filter(() => randomInt(2) === 1);
  if (items.length === 0) items.push(ITEMS[randomInt(ITEMS.length)]!);
  return {
    number: `INV-${randomInt(10_000, 100_000)}`,
    iso: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
    dateText: `${MONTHS[month - 1]![0]!.toUpperCase()}${MONTHS[month - 1]!.slice(1)} ${day}, ${year}`,
    amount,
    amountText: `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} USD`,
    status: CATEGORIES[randomInt(CATEGORIES.length)]!,
    reverseCharge: randomInt(2) === 1,
    items,
  };
}
type Invoice = ReturnType<typeof randomInvoice>;

/** Three pages: the header fields on page 1, the money on page 2, filler around them. */
function invoicePages(v: Invoice): string[][] {
  return [
    [
      'INVOICE',
      ...filler(6),
      `Invoice Number: ${v.number}`,
      `Invoice Date: ${v.dateText}`,
      `Reverse Charge: ${v.reverseCharge ? 'yes' : 'no'}`,
      ...filler(10),
    ],
    [
      ...filler(8),
      `Total Amount: ${v.amountText}`,
      `Payment Status: ${v.status.toUpperCase()}`,
      ...filler(8),
    ],
    [...filler(5), `Items Delivered: ${v.items.join(', ')}`, ...filler(12)],
  ];
}

function column(prompt: string, outputType: EngineColumn['outputType'], extra: Partial<EngineColumn> = {}) {
  return { prompt, outputType, config: null, isCompositional: false, locale: null, ...extra } as EngineColumn;
}

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The quote is page text verbatim, and the box covers exactly the words quoted. */
function expectVerified(c: Citation, docs: EngineDocument[]) {
  const doc = docs.find((d) => d.fileId === c.fileId)!;
  const page = doc.pages.find((p) => p.page === c.page)!;
  expect(collapse(page.text)).toContain(c.quote);
  const n = c.quote.split(' ').length;
  let start = -1;
  for (let i = 0; i + n <= page.words.length && start < 0; i++) {
    if (
      page.words
        .slice(i, i + n)
        .map((w) => w.text)
        .join(' ') === c.quote
    )
      start = i;
  }
  expect(start, `words of "${c.quote}"`).toBeGreaterThanOrEqual(0);
  const box = c.box as Box;
  for (const w of page.words.slice(start, start + n)) {
    expect(w.box[0]).toBeGreaterThanOrEqual(box[0] - 1e-3);
    expect(w.box[1]).toBeGreaterThanOrEqual(box[1] - 1e-3);
    expect(w.box[2]).toBeLessThanOrEqual(box[2] + 1e-3);
    expect(w.box[3]).toBeLessThanOrEqual(box[3] + 1e-3);
  }
  // Not much more than the quoted words: no other line inside the box.
  const lineHeight = page.words[start]!.box[3] - page.words[start]!.box[1];
  expect(box[3] - box[1]).toBeLessThan(lineHeight * 1.5);
}

function userText(r: Received): string {
  const c = r.body.messages.find((m) => m.role === 'user')!.content;
  return typeof c === 'string' ? c : c.map((p) => p.text ?? '').join('\n');
}

function success(a: EngineAnswer) {
  expect(a.status, a.status === 'ERROR' ? a.statusText : '').toBe('SUCCESS');
  return a as Extract<EngineAnswer, { status: 'SUCCESS' }>;
}

// ---------------------------------------------------------------------------------------

const KEY = `sk-test-${randomInt(1e12).toString(36)}${randomInt(1e12).toString(36)}`;
const fake = new FakeModel();

function engine(o: Partial<OpenAIEngineOptions> = {}): AnswerEngine {
  return createOpenAIEngine({
    baseUrl: fake.url,
    apiKey: KEY,
    model: 'fake-model',
    vision: false,
    timeoutMs: 5_000,
    maxRetries: 2,
    concurrency: 4,
    retryBaseMs: 10,
    ...o,
  });
}

describe('openai engine against an OpenAI-compatible server', () => {
  let inv: Invoice;
  let doc: EngineDocument;

  beforeAll(async () => {
    await fake.start();
    inv = randomInvoice();
    doc = await pdfDocument(`file_${randomInt(1e9)}`, invoicePages(inv));
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.reset());

  it('answers each output type from the passages it sends, with verified citations', async () => {
    // Built the way the service builds it: settings, then the factory.
    const config = loadConfig({
      ENGINE: 'openai',
      OPENAI_BASE_URL: fake.url,
      OPENAI_API_KEY: KEY,
      OPENAI_MODEL: 'fake-model',
    });
    const e = openEngine(config);
    expect(e.name).toBe('openai');
    const subject = { kind: 'file' as const, documents: [doc] };
    const cases: [EngineColumn, unknown, number][] = [
      [column('What is the Invoice Number?', 'text_quote'), inv.number, 1],
      [column('What is the Invoice Date?', 'date'), inv.iso, 1],
      [column('Is there a Reverse Charge?', 'boolean'), inv.reverseCharge, 1],
      [column('What is the Total Amount?', 'number'), inv.amount, 2],
      [
        column('What is the Payment Status?', 'categorical', { config: { categories: CATEGORIES } }),
        inv.status,
        2,
      ],
      [column('Which Items Delivered are listed?', 'list_scalar'), inv.items, 3],
    ];
    for (const [col, expected, page] of cases) {
      const a = success(await e.answer(col, subject));
      expect(a.value, col.prompt).toEqual({ type: col.outputType, value: expected });
      expect(a.citations.length, col.prompt).toBeGreaterThan(0);
      for (const c of a.citations) {
        expect(c).toMatchObject({ fileId: doc.fileId, page });
        expectVerified(c, [doc]);
      }
      expect(a.confidence).toBeCloseTo(0.9, 5);
      // A single-file row: one fact, equal to the answer.
      expect(a.facts).toEqual([
        {
          fileId: doc.fileId,
          role: null,
          effectiveAt: null,
          sortOrder: 0,
          status: 'SUCCESS',
          value: a.value,
          citations: a.citations,
          confidence: a.confidence,
        },
      ]);
    }
    expect(fake.requests).toHaveLength(cases.length);
    for (const [i, r] of fake.requests.entries()) {
      const col = cases[i]![0];
      expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(r.body.model).toBe('fake-model');
      expect(r.body.response_format).toMatchObject({
        type: 'json_schema',
        json_schema: { name: `folio_${col.outputType}`, strict: true },
      });
      const schema = r.body.response_format!.json_schema!.schema;
      expect(schema).toMatchObject({
        required: ['quotes', 'value', 'confidence'],
        additionalProperties: false,
      });
      expect(r.body.messages[0]!.role).toBe('system');
      expect(r.body.messages[0]!.content).toMatch(/verbatim/);
      const text = userText(r);
      expect(text).toContain(`Question: ${col.prompt}`);
      expect(text).toContain(`--- D1 page ${cases[i]![2]} ---`);
    }
    expect(fake.requests[4]!.body.response_format!.json_schema!.schema.properties.value).toMatchObject({
      anyOf: [{ type: 'string', enum: CATEGORIES }, { type: 'null' }],
    });
    expect(fake.requests[1]!.body.response_format!.json_schema!.schema.properties.value).toMatchObject({
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
  });

  it('sends retrieved passages of a larger document, not every page', async () => {
    const e = engine({ retrieval: { tinyWords: 50, perDocument: 4 } });
    const a = success(
      await e.answer(column('What is the Total Amount?', 'number'), { kind: 'file', documents: [doc] }),
    );
    expect(a.value).toEqual({ type: 'number', value: inv.amount });
    const text = userText(fake.requests[0]!);
    expect(text).toContain('--- D1 page 2 ---');
    expect(text).toContain(`Total Amount: ${inv.amountText}`);
    // Passages with a line of context, not the whole document.
    const whole = doc.pages.map((p) => p.text).join('\n');
    expect(text.length).toBeLessThan(whole.length / 2);
    expect(text).not.toContain(`Items Delivered: ${inv.items.join(', ')}`);
  });

  it('a value the document does not state is null, without citations', async () => {
    const a = success(
      await engine({ apiKey: null }).answer(column('What is the Purchase Order Reference?', 'text_quote'), {
        kind: 'file',
        documents: [doc],
      }),
    );
    expect(a.value).toEqual({ type: 'text_quote', value: null });
    expect(a.citations).toEqual([]);
    // No key (a local server): no Authorization header at all.
    expect(fake.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('a server that rejects temperature is asked again without it, and not sent it again', async () => {
    fake.rejectTemperature = true;
    const e = engine();
    const col = column('What is the Invoice Number?', 'text_quote');
    success(await e.answer(col, { kind: 'file', documents: [doc] }));
    const b = success(await e.answer(col, { kind: 'file', documents: [doc] }));
    expect(b.value).toEqual({ type: 'text_quote', value: inv.number });
    expect(fake.requests.map((r) => r.body.temperature)).toEqual([0, undefined, undefined]);
  });

  it('drops a quote the page does not hold, and caps confidence when no quote holds', async () => {
    fake.hallucinate = 'extra';
    const col = column('What is the Invoice Number?', 'text_quote');
    const a = success(await engine().answer(col, { kind: 'file', documents: [doc] }));
    expect(a.value).toEqual({ type: 'text_quote', value: inv.number });
    expect(a.citations).toHaveLength(1);
    expect(a.citations[0]!.quote).toBe(`Invoice Number: ${inv.number}`);
    expect(a.confidence).toBeLessThan(0.9);

    fake.hallucinate = 'only';
    const b = success(await engine().answer(col, { kind: 'file', documents: [doc] }));
    expect(b.value).toEqual({ type: 'text_quote', value: inv.number });
    expect(b.citations).toEqual([]);
    expect(b.confidence).toBeLessThanOrEqual(0.35);
  });

  it('a malformed answer is asked for again once, then used', async () => {
    fake.script = ['malformed'];
    const a = success(
      await engine().answer(column('What is the Total Amount?', 'number'), {
        kind: 'file',
        documents: [doc],
      }),
    );
    expect(a.value).toEqual({ type: 'number', value: inv.amount });
    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1]!.body.messages;
    expect(retry.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(retry[3]!.content).toMatch(/not valid JSON/);
  });

  it('malformed twice ends the cell ERROR with a clear statusText', async () => {
    fake.fallback = 'malformed';
    const a = await engine().answer(column('What is the Total Amount?', 'number'), {
      kind: 'file',
      documents: [doc],
    });
    expect(a).toMatchObject({
      status: 'ERROR',
      statusText: expect.stringMatching(/answer could not be used.*JSON/),
    });
    expect(a.facts).toHaveLength(1);
    expect(a.facts[0]).toMatchObject({ fileId: doc.fileId, status: 'ERROR' });
    expect(fake.requests).toHaveLength(2);
  });

  it('429 is retried after the Retry-After the server asks for', async () => {
    fake.script = ['429'];
    const t0 = performance.now();
    const a = success(
      await engine().answer(column('What is the Invoice Date?', 'date'), { kind: 'file', documents: [doc] }),
    );
    const elapsed = performance.now() - t0;
    expect(a.value).toEqual({ type: 'date', value: inv.iso });
    expect(fake.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeLessThan(5_000);
  });

  it('a 500 is retried; a persistent 5xx ends ERROR with the status', async () => {
    fake.script = ['500'];
    success(
      await engine().answer(column('What is the Invoice Date?', 'date'), { kind: 'file', documents: [doc] }),
    );
    expect(fake.requests).toHaveLength(2);

    fake.reset();
    fake.fallback = '500';
    const a = await engine({ maxRetries: 2 }).answer(column('What is the Invoice Date?', 'date'), {
      kind: 'file',
      documents: [doc],
    });
    expect(a).toMatchObject({ status: 'ERROR' });
    const text = (a as { statusText: string }).statusText;
    expect(text).toMatch(/HTTP 500/);
    expect(text).toMatch(/upstream model crashed/);
    expect(text).toMatch(/gave up after 3 attempts/);
    expect(fake.requests).toHaveLength(3);
  });

  it('a server that hangs past the timeout ends ERROR', async () => {
    fake.script = ['hang'];
    const t0 = performance.now();
    const a = await engine({ timeoutMs: 300 }).answer(column('What is the Invoice Date?', 'date'), {
      kind: 'file',
      documents: [doc],
    });
    expect(a).toMatchObject({
      status: 'ERROR',
      statusText: expect.stringMatching(/did not answer within 300 ms/),
    });
    expect(performance.now() - t0).toBeLessThan(3_000);
    expect(fake.requests).toHaveLength(1);
  });

  it('the key goes only into the Authorization header: never into what the engine returns or throws', async () => {
    fake.script = ['401-echo'];
    const a = await engine().answer(column('What is the Invoice Date?', 'date'), {
      kind: 'file',
      documents: [doc],
    });
    expect(fake.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(a).toMatchObject({ status: 'ERROR', statusText: expect.stringMatching(/HTTP 401.*\[redacted\]/) });
    expect(JSON.stringify(a)).not.toContain(KEY);
    expect(fake.requests).toHaveLength(1); // a 4xx other than 429 is not retried

    // Nothing listening: a network error, retried, then ERROR.
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const b = await engine({ baseUrl: `http://127.0.0.1:${port}/v1`, maxRetries: 1 }).answer(
      column('What is the Invoice Date?', 'date'),
      { kind: 'file', documents: [doc] },
    );
    expect(b).toMatchObject({
      status: 'ERROR',
      statusText: expect.stringMatching(/could not reach the model server/),
    });
    expect(JSON.stringify(b)).not.toContain(KEY);

    // The caller giving up: the engine throws the caller's reason, nothing with the key.
    fake.reset();
    fake.fallback = 'hang';
    const ctl = new AbortController();
    const pending = engine().answer(
      column('What is the Invoice Date?', 'date'),
      { kind: 'file', documents: [doc] },
      ctl.signal,
    );
    setTimeout(() => ctl.abort(new Error('run cancelled')), 100);
    const thrown = await pending.then(
      () => null,
      (e: unknown) => e,
    );
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toBe('run cancelled');
    expect(`${(thrown as Error).stack}`).not.toContain(KEY);
  });

  it('bundles: one call per document within the concurrency limit, then reduced', async () => {
    fake.delayMs = 80;
    const docs: EngineDocument[] = [];
    const values: number[] = [];
    for (let i = 0; i < 6; i++) {
      const v = randomInvoice();
      values.push(v.amount);
      docs.push(
        await pdfDocument(`file_b${i}_${randomInt(1e9)}`, invoicePages(v), {
          isPrimary: i === 0,
          effectiveAt: Date.UTC(2020, 0, 1) + i * 86_400_000,
          sortOrder: i,
          role: i === 0 ? 'contract' : 'amendment',
        }),
      );
    }
    const a = success(
      await engine({ concurrency: 2 }).answer(column('What is the Total Amount?', 'number'), {
        kind: 'bundle',
        documents: docs,
      }),
    );
    expect(fake.requests).toHaveLength(6);
    expect(fake.maxInFlight).toBe(2);
    // Every document says something different: the newest effective date wins.
    expect(a.value).toEqual({ type: 'number', value: values[5] });
    for (const c of a.citations) expectVerified(c, docs);
    expect(a.citations.map((c) => c.fileId)).toEqual([docs[5]!.fileId]);
    expect(a.facts.map((f) => f.fileId)).toEqual(docs.map((d) => d.fileId));
    a.facts.forEach((f, i) => {
      expect(f).toMatchObject({ status: 'SUCCESS', value: { type: 'number', value: values[i] } });
      expect(f.citations[0]!.fileId).toBe(docs[i]!.fileId);
    });
    // Each request carried only its own document.
    for (const r of fake.requests) expect(userText(r).match(/^=== D\d+:/gm)).toHaveLength(1);
  });

  it('compositional: one call for the subject, document labels in the quotes, facts per document', async () => {
    const other = await pdfDocument(`file_c0_${randomInt(1e9)}`, [[...filler(12)], [...filler(10)]], {
      isPrimary: true,
    });
    const withValue = await pdfDocument(`file_c1_${randomInt(1e9)}`, invoicePages(inv), {
      isPrimary: false,
      sortOrder: 1,
    });
    const col = column('What is the Invoice Number?', 'text_quote', { isCompositional: true });
    const a = success(await engine().answer(col, { kind: 'bundle', documents: [withValue, other] }));
    expect(fake.requests).toHaveLength(1);
    const r = fake.requests[0]!;
    const quoteItem = r.body.response_format!.json_schema!.schema.properties.quotes!.items!;
    expect(quoteItem.properties.document).toMatchObject({ enum: ['D1', 'D2'] });
    const text = userText(r);
    // Primary first: the filler document is D1.
    expect(text).toContain(`=== D1: "${other.fileName}"`);
    expect(text).toContain(`=== D2: "${withValue.fileName}"`);
    expect(a.value).toEqual({ type: 'text_quote', value: inv.number });
    expect(a.citations).toHaveLength(1);
    expect(a.citations[0]).toMatchObject({ fileId: withValue.fileId, page: 1 });
    expectVerified(a.citations[0]!, [withValue]);
    expect(a.facts).toHaveLength(2);
    expect(a.facts[0]).toMatchObject({
      fileId: other.fileId,
      value: { type: 'text_quote', value: null },
      citations: [],
    });
    expect(a.facts[1]).toMatchObject({ fileId: withValue.fileId, value: a.value, citations: a.citations });
  });

  it('vision: page images go with the passages as data URLs when a loader is given', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);
    const asked: string[] = [];
    const e = engine({
      vision: true,
      pageImage: async (fileId, page) => {
        asked.push(`${fileId}:${page}`);
        return png;
      },
    });
    const a = success(
      await e.answer(column('What is the Total Amount?', 'number'), { kind: 'file', documents: [doc] }),
    );
    expect(a.value).toEqual({ type: 'number', value: inv.amount });
    const content = fake.requests[0]!.body.messages[1]!.content;
    expect(Array.isArray(content)).toBe(true);
    const urls = (content as { image_url?: { url: string } }[]).flatMap((p) =>
      p.image_url ? [p.image_url.url] : [],
    );
    expect(urls.length).toBeGreaterThan(0);
    expect(urls[0]).toBe(`data:image/png;base64,${Buffer.from(png).toString('base64')}`);
    expect(asked).toContain(`${doc.fileId}:2`);

    // Vision on without a loader: text only.
    fake.reset();
    success(
      await engine({ vision: true }).answer(column('What is the Total Amount?', 'number'), {
        kind: 'file',
        documents: [doc],
      }),
    );
    expect(typeof fake.requests[0]!.body.messages[1]!.content).toBe('string');
  });

  it('image columns answer with a region chosen among the pictures offered', async () => {
    const base = await pdfDocument(`file_i_${randomInt(1e9)}`, [
      ['Northwind company logo', ...filler(6)],
      [...filler(4), 'Signature of the supplier', ...filler(4)],
    ]);
    const logoWord = base.pages[0]!.words[0]!.box;
    const signWord = base.pages[1]!.words.find((w) => w.text === 'Signature')!.box;
    const logo: Box = [logoWord[0], Math.max(0, logoWord[1] - 0.06), logoWord[0] + 0.3, logoWord[1] - 0.005];
    const sign: Box = [signWord[0], signWord[3] + 0.005, signWord[0] + 0.3, signWord[3] + 0.06];
    const picDoc: EngineDocument = {
      ...base,
      pages: [
        { ...base.pages[0]!, images: [{ box: logo }] },
        { ...base.pages[1]!, images: [{ box: sign }] },
      ],
    };
    const a = success(
      await engine().answer(column('Find the Signature', 'image'), { kind: 'file', documents: [picDoc] }),
    );
    const regions = a.value as Region[];
    expect(regions).toEqual([
      { fileId: picDoc.fileId, page: 2, box: sign, caption: expect.stringMatching(/Signature/) },
    ]);
    const schema = fake.requests[0]!.body.response_format!.json_schema!.schema.properties.value!.items!;
    expect(schema.properties.candidate!.enum).toEqual(expect.arrayContaining(['D1-p1-i1', 'D1-p2-i1']));
  });

  it('a categorical column without categories ends ERROR without asking the model', async () => {
    const a = await engine().answer(column('What is the Payment Status?', 'categorical'), {
      kind: 'file',
      documents: [doc],
    });
    expect(a).toMatchObject({ status: 'ERROR', statusText: 'column has no categories' });
    expect(fake.requests).toHaveLength(0);
  });
});
