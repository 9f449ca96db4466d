/**
 * The local answer engine (decisions.md D5) on generated documents: contracts and reports
 * whose values are drawn at random every run and placed on random pages among filler, read
 * by the real PDF reader (and once through the real ingest pipeline). Every output type of
 * interface.md 2.2, the citations of 2.4 (quote verbatim on the cited page, word-level box
 * covering it), the null answer, and the per-document facts and reduction of bundles (2.6).
 *
 * Reproduce a run with ENGINE_TEST_SEED=<seed printed at the start>; ENGINE_TEST_ROUNDS sets
 * how many random documents each case draws (2 by default).
 *
 * These pin the rules scorer (LOCAL_SCORER=rules), whose behaviour they were written for; the
 * learned scorer, the default, is held to test/engine-families.test.ts and the eval targets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OutputType } from '../src/domain/columns.ts';
import { createLocalEngine } from '../src/engine/local/engine.ts';
import type {
  AnswerValue,
  Box,
  Citation,
  ColumnConfig,
  EngineAnswer,
  EngineColumn,
  EngineDocument,
  EnginePage,
  EngineSubject,
  Fact,
  Region,
} from '../src/engine/types.ts';
import { loadEnginePages } from '../src/infra/repos/engine-pages.ts';
import {
  AMOUNT_FORMS,
  BULLETS,
  CLAUSES,
  COMPANIES,
  type Contract,
  type ContractOptions,
  contractPdf,
  DATE_FORMS,
  DELIVERABLE_HEADINGS,
  engineDocument,
  hashSeed,
  makeContract,
  makeReport,
  makeRng,
  NEGATIVE_FORMS,
  type Report,
  type Rng,
  readEnginePages,
  STATES,
} from './fixtures/contract.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

const SEED = Number(process.env.ENGINE_TEST_SEED ?? Math.floor(Math.random() * 2 ** 32));
const ROUNDS = Number(process.env.ENGINE_TEST_ROUNDS ?? 2);
console.info(`engine-local: ENGINE_TEST_SEED=${SEED} ENGINE_TEST_ROUNDS=${ROUNDS}`);

/** Each case draws its own values from the run's seed and its name. */
const rngFor = (...name: (string | number)[]): Rng => makeRng(hashSeed(SEED, ...name));
const rounds = (name: string) => Array.from({ length: ROUNDS }, (_, i) => rngFor(name, i));

const engine = createLocalEngine('rules');
const LOCALES = [null, 'en-US', 'de-DE', 'fr-FR', 'en-IN'] as const;

function column(
  prompt: string,
  outputType: OutputType,
  opts: { config?: ColumnConfig | null; isCompositional?: boolean; locale?: string | null } = {},
): EngineColumn {
  return {
    prompt,
    outputType,
    config: opts.config ?? null,
    isCompositional: opts.isCompositional ?? false,
    locale: opts.locale ?? null,
  };
}

const fileSubject = (doc: EngineDocument): EngineSubject => ({ kind: 'file', documents: [doc] });

async function readContract(contract: Contract, membership: Partial<EngineDocument> = {}) {
  return engineDocument(await readEnginePages(await contractPdf(contract)), membership);
}

async function newContract(rng: Rng, opts: ContractOptions = {}) {
  const contract = makeContract(rng, opts);
  return { contract, doc: await readContract(contract) };
}

/** Asks the engine through its contract and checks every citation of the answer and its facts. */
async function ask(col: EngineColumn, subject: EngineSubject, what: string): Promise<EngineAnswer> {
  const answer = await engine.answer(col, subject);
  checkAnswerShape(col, subject, answer, what);
  return answer;
}

// ---------- citations (2.4) ----------

const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const loose = (s: string) =>
  s
    .normalize('NFKD')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, ' ')
    .trim();
const EPS = 1.5e-4;

/** Positions of the quote as a run of consecutive words of the page. */
function quotedRuns(page: EnginePage, quote: string): number[][] {
  const target = collapse(quote).split(' ');
  const runs: number[][] = [];
  for (let i = 0; i + target.length <= page.words.length; i++) {
    if (target.every((t, k) => page.words[i + k]!.text === t)) runs.push(target.map((_, k) => i + k));
  }
  return runs;
}

function union(page: EnginePage, run: number[]): Box {
  const boxes = run.map((i) => page.words[i]!.box);
  return [
    Math.min(...boxes.map((b) => b[0])),
    Math.min(...boxes.map((b) => b[1])),
    Math.max(...boxes.map((b) => b[2])),
    Math.max(...boxes.map((b) => b[3])),
  ];
}

function checkCitation(c: Citation, subject: EngineSubject, what: string) {
  const doc = subject.documents.find((d) => d.fileId === c.fileId);
  expect(doc, `${what}: citation names a document of the subject (${c.fileId})`).toBeDefined();
  expect(Number.isInteger(c.page), `${what}: integer page`).toBe(true);
  expect(c.page, `${what}: 1-based page`).toBeGreaterThanOrEqual(1);
  expect(c.page, `${what}: page within the document`).toBeLessThanOrEqual(doc!.pages.length);
  const page = doc!.pages.find((p) => p.page === c.page)!;
  expect(collapse(c.quote).length, `${what}: non-empty quote`).toBeGreaterThan(0);
  expect(
    collapse(page.text).includes(collapse(c.quote)),
    `${what}: quote "${c.quote}" verbatim on page ${c.page}`,
  ).toBe(true);
  expect(c.box, `${what}: citation of "${c.quote}" has a box`).not.toBeNull();
  const box = c.box!;
  expect(box, `${what}: four numbers`).toHaveLength(4);
  for (const v of box) {
    expect(v, `${what}: box ${box} within [0,1]`).toBeGreaterThanOrEqual(0);
    expect(v, `${what}: box ${box} within [0,1]`).toBeLessThanOrEqual(1);
  }
  expect(box[2] > box[0] && box[3] > box[1], `${what}: box ${box} not empty`).toBe(true);
  // Word-level (D5): the box covers the quoted words, and not much more.
  const runs = quotedRuns(page, c.quote);
  expect(runs.length, `${what}: "${c.quote}" is a run of words of page ${c.page}`).toBeGreaterThan(0);
  const fits = runs.some((run) => {
    const u = union(page, run);
    const covers =
      box[0] <= u[0] + EPS && box[1] <= u[1] + EPS && box[2] >= u[2] - EPS && box[3] >= u[3] - EPS;
    const tight = box.every((v, k) => Math.abs(v - u[k]!) < 0.02);
    return covers && tight;
  });
  expect(fits, `${what}: box ${box} covers the words of "${c.quote}" (and only them)`).toBe(true);
}

function checkRegion(r: Region, subject: EngineSubject, what: string) {
  const doc = subject.documents.find((d) => d.fileId === r.fileId);
  expect(doc, `${what}: region names a document of the subject`).toBeDefined();
  expect(r.page >= 1 && r.page <= doc!.pages.length, `${what}: 1-based page ${r.page}`).toBe(true);
  expect(typeof r.caption, `${what}: caption`).toBe('string');
  if (r.box) {
    expect(r.box, `${what}: four numbers`).toHaveLength(4);
    for (const v of r.box) expect(v >= 0 && v <= 1, `${what}: region box ${r.box} within [0,1]`).toBe(true);
    expect(r.box[2] > r.box[0] && r.box[3] > r.box[1], `${what}: region box ${r.box} not empty`).toBe(true);
  }
}

function checkValueShape(col: EngineColumn, value: AnswerValue | null, subject: EngineSubject, what: string) {
  if (value === null) return;
  if (col.outputType === 'image' || col.outputType === 'image_list') {
    expect(Array.isArray(value), `${what}: image columns answer with an array of regions`).toBe(true);
    for (const r of value as Region[]) checkRegion(r, subject, what);
    return;
  }
  expect(Array.isArray(value), `${what}: typed value object`).toBe(false);
  expect((value as { type: string }).type, `${what}: value.type`).toBe(col.outputType);
}

function checkAnswerShape(col: EngineColumn, subject: EngineSubject, a: EngineAnswer, what: string) {
  if (a.status === 'SUCCESS') {
    checkValueShape(col, a.value, subject, what);
    expect(a.confidence >= 0 && a.confidence <= 1, `${what}: confidence ${a.confidence} in 0-1`).toBe(true);
    for (const c of a.citations) checkCitation(c, subject, what);
  }
  // 2.6: one fact per document of the subject, with its membership.
  expect(a.facts.map((f) => f.fileId).sort(), `${what}: one fact per document`).toEqual(
    subject.documents.map((d) => d.fileId).sort(),
  );
  for (const f of a.facts) {
    const doc = subject.documents.find((d) => d.fileId === f.fileId)!;
    expect(
      { role: f.role, effectiveAt: f.effectiveAt, sortOrder: f.sortOrder },
      `${what}: fact membership`,
    ).toEqual({ role: doc.role, effectiveAt: doc.effectiveAt, sortOrder: doc.sortOrder });
    if (f.status === 'SUCCESS') checkValueShape(col, f.value, subject, `${what} (fact)`);
    const single: EngineSubject = { kind: 'file', documents: [doc] };
    for (const c of f.citations) {
      expect(c.fileId, `${what}: a fact cites its own document`).toBe(f.fileId);
      checkCitation(c, single, `${what} (fact)`);
    }
  }
}

const describeAnswer = (a: EngineAnswer) =>
  a.status === 'SUCCESS'
    ? `${JSON.stringify(a.value)} (confidence ${a.confidence}; cited ${a.citations.map((c) => `p${c.page} "${c.quote}"`).join(', ') || 'nothing'})`
    : `ERROR "${a.statusText}"`;

/** The scalar answered, after checking it is a SUCCESS. */
function answered(a: EngineAnswer, what: string): unknown {
  expect(a.status, `${what}: got ${describeAnswer(a)}`).toBe('SUCCESS');
  if (a.status !== 'SUCCESS') return undefined;
  return Array.isArray(a.value) ? a.value : a.value.value;
}

/** Every citation on the fact's page and at least one quoting what the document wrote. */
function expectCited(a: EngineAnswer, fileId: string, page: number, written: string, what: string) {
  if (a.status !== 'SUCCESS') return;
  expect(a.citations.length, `${what}: cited (got ${describeAnswer(a)})`).toBeGreaterThan(0);
  for (const c of a.citations) {
    expect(`${c.fileId} p${c.page}`, `${what}: cited "${c.quote}"`).toBe(`${fileId} p${page}`);
  }
  expect(
    a.citations.some((c) => loose(c.quote).includes(loose(written))),
    `${what}: a quote contains "${written}" (got ${describeAnswer(a)})`,
  ).toBe(true);
}

const msg = (sentence: string, expected: unknown, a: EngineAnswer) =>
  `seed ${SEED}: "${sentence}" expected ${JSON.stringify(expected)}, got ${describeAnswer(a)}`;

// ---------- output types on single documents ----------

describe('local engine, output types on generated 5-page contracts (interface.md 2.2, 2.4; D5)', () => {
  it.each(DATE_FORMS)(
    '2.2 date: written "%s" is answered as ISO YYYY-MM-DD and cited (2.4)',
    async (form) => {
      for (const rng of rounds(`date ${form}`)) {
        const { contract: c, doc } = await newContract(rng, { dateForm: form });
        const a = await ask(
          column('What is the effective date of the agreement?', 'date'),
          fileSubject(doc),
          form,
        );
        const what = msg(
          `${c.effectiveDate.sentence}${c.effectiveDate.context ? ` [elsewhere: ${c.effectiveDate.context.written}]` : ''}`,
          c.effectiveDate.value,
          a,
        );
        expect(answered(a, what), what).toBe(c.effectiveDate.value);
        expectCited(a, doc.fileId, c.effectiveDate.page, c.effectiveDate.quoted, what);
      }
    },
  );

  it.each(AMOUNT_FORMS)(
    '2.2 number: an amount written "%s" is a plain number, whatever the locale',
    async (form) => {
      for (const rng of rounds(`amount ${form}`)) {
        const { contract: c, doc } = await newContract(rng, { amountForm: form });
        const locale = rng.pick(LOCALES);
        const a = await ask(
          column('What is the total contract price?', 'number', { locale }),
          fileSubject(doc),
          form,
        );
        const what = `${msg(c.price.sentence, c.price.value, a)} (locale ${locale})`;
        expect(answered(a, what), what).toBe(c.price.value);
        expectCited(a, doc.fileId, c.price.page, c.price.quoted, what);
      }
    },
  );

  it.each(NEGATIVE_FORMS)(
    '2.2 number: a negative written "%s" (parentheses or minus) is negative',
    async (form) => {
      for (const rng of rounds(`negative ${form}`)) {
        const { contract: c, doc } = await newContract(rng, { negativeForm: form });
        const a = await ask(
          column('What is the credit adjustment amount?', 'number', { locale: rng.pick(LOCALES) }),
          fileSubject(doc),
          form,
        );
        const what = msg(c.adjustment.sentence, c.adjustment.value, a);
        expect(answered(a, what), what).toBe(c.adjustment.value);
        expectCited(a, doc.fileId, c.adjustment.page, c.adjustment.quoted, what);
      }
    },
  );

  it('2.2 number: a percentage ("1.25%", "1.25 percent") is the number written', async () => {
    for (const rng of rounds('percent')) {
      const { contract: c, doc } = await newContract(rng);
      const a = await ask(
        column('What is the late payment interest rate in percent?', 'number', { locale: rng.pick(LOCALES) }),
        fileSubject(doc),
        'percent',
      );
      const what = msg(c.interest.sentence, c.interest.value, a);
      expect(answered(a, what), what).toBe(c.interest.value);
      expectCited(a, doc.fileId, c.interest.page, c.interest.quoted, what);
    }
  });

  it('2.2 number: a term written in words ("two (2) years") answers "how many months"', async () => {
    for (const rng of rounds('term months')) {
      const { contract: c, doc } = await newContract(rng);
      const a = await ask(column('How many months is the initial term?', 'number'), fileSubject(doc), 'term');
      const what = msg(c.term.sentence, c.term.value, a);
      expect(answered(a, what), what).toBe(c.term.value);
      expectCited(a, doc.fileId, c.term.page, c.term.quoted, what);
    }
  });

  /** A short quote: holds the expected text and at most a few words more (2.2 "short text"). */
  function expectShortQuote(a: EngineAnswer, expected: string, what: string) {
    const v = answered(a, what);
    expect(typeof v, what).toBe('string');
    const got = loose(String(v));
    expect(` ${got} `.includes(` ${loose(expected)} `), what).toBe(true);
    expect(got.split(' ').length, `${what}: short`).toBeLessThanOrEqual(
      loose(expected).split(' ').length + 6,
    );
  }

  it('2.2 text_quote: the governing-law state, quoted short, cited on its page', async () => {
    for (const rng of rounds('text law')) {
      const { contract: c, doc } = await newContract(rng);
      const a = await ask(
        column("Which state's law governs the agreement?", 'text_quote'),
        fileSubject(doc),
        'law',
      );
      const what = `${msg(c.governingLaw.sentence, c.governingLaw.value, a)}${c.incorporationState ? ` [also incorporated in ${c.incorporationState}]` : ''}`;
      expectShortQuote(a, c.governingLaw.value, what);
      expectCited(a, doc.fileId, c.governingLaw.page, c.governingLaw.value, what);
    }
  });

  it('2.2 text_quote: the term as written ("thirty-six (36) months")', async () => {
    for (const rng of rounds('text term')) {
      const { contract: c, doc } = await newContract(rng);
      const a = await ask(
        column('What is the initial term of the agreement?', 'text_quote'),
        fileSubject(doc),
        'term',
      );
      const what = msg(c.term.sentence, c.term.written, a);
      expectShortQuote(a, c.term.written, what);
      expectCited(a, doc.fileId, c.term.page, c.term.quoted, what);
    }
  });

  it('2.2 text_quote: the party named "Supplier" in the preamble', async () => {
    for (const rng of rounds('text supplier')) {
      const { contract: c, doc } = await newContract(rng);
      const a = await ask(column('Who is the Supplier?', 'text_quote'), fileSubject(doc), 'supplier');
      const what = msg(c.parties.sentence, c.supplier, a);
      expectShortQuote(a, c.supplier, what);
      expectCited(a, doc.fileId, c.parties.page, c.supplier, what);
    }
  });

  const clauseCases = CLAUSES.flatMap((t) => [
    { id: t.id, yes: true, sentence: t.yes },
    { id: t.id, yes: false, sentence: t.no },
  ]);
  it.each(clauseCases)('2.2 boolean: "$sentence" → $yes (negation read)', async ({ id, yes }) => {
    for (const rng of rounds(`clause ${id} ${yes}`)) {
      const { contract: c, doc } = await newContract(rng, { polarity: { [id]: yes } });
      const clause = c.clauses.find((x) => x.topic.id === id)!;
      const a = await ask(column(clause.topic.question, 'boolean'), fileSubject(doc), id);
      const what = `${msg(clause.sentence, yes, a)} for "${clause.topic.question}"`;
      expect(answered(a, what), what).toBe(yes);
      expectCited(a, doc.fileId, clause.page, clause.quoted, what);
    }
  });

  it('2.2 categorical: exactly one of config.categories (the governing-law state), verbatim', async () => {
    for (const rng of rounds('categorical state')) {
      const { contract: c, doc } = await newContract(rng);
      const others = rng.sample(
        STATES.filter((s) => s !== c.governingLaw.value),
        5,
      );
      const categories = rng.shuffle([c.governingLaw.value, ...others]);
      const a = await ask(
        column("Which state's law governs the agreement?", 'categorical', { config: { categories } }),
        fileSubject(doc),
        'categorical',
      );
      const what = `${msg(c.governingLaw.sentence, c.governingLaw.value, a)} among ${JSON.stringify(categories)}${c.incorporationState ? ` [also incorporated in ${c.incorporationState}]` : ''}`;
      expect(answered(a, what), what).toBe(c.governingLaw.value);
      expectCited(a, doc.fileId, c.governingLaw.page, c.governingLaw.value, what);
    }
  });

  it('2.2 categorical: the category is returned as configured, not as written ("quarterly" → "Quarterly")', async () => {
    for (const rng of rounds('categorical frequency')) {
      const { contract: c, doc } = await newContract(rng);
      const style = rng.pick([
        (s: string) => s[0]!.toUpperCase() + s.slice(1),
        (s: string) => s.toUpperCase(),
      ]);
      const categories = rng.shuffle(['monthly', 'quarterly', 'annually']).map(style);
      const a = await ask(
        column('How often are fees invoiced?', 'categorical', { config: { categories } }),
        fileSubject(doc),
        'frequency',
      );
      const what = `${msg(c.frequency.sentence, style(c.frequency.value), a)} among ${JSON.stringify(categories)}`;
      expect(answered(a, what), what).toBe(style(c.frequency.value));
      expectCited(a, doc.fileId, c.frequency.page, c.frequency.value, what);
    }
  });

  it.each([
    ['config null', null],
    ['no categories key', {}],
    ['empty categories', { categories: [] }],
  ] as const)(
    '2.2 categorical without categories (%s) is ERROR "column has no categories"',
    async (_, config) => {
      const { doc } = await newContract(rngFor('categorical none'));
      const a = await ask(
        column("Which state's law governs the agreement?", 'categorical', {
          config: config as ColumnConfig | null,
        }),
        fileSubject(doc),
        'no categories',
      );
      expect(a).toMatchObject({ status: 'ERROR', statusText: 'column has no categories' });
    },
  );

  /** Every expected item once, nothing else (compared ignoring case and punctuation). */
  function expectItems(a: EngineAnswer, expected: string[], what: string) {
    const v = answered(a, what);
    expect(Array.isArray(v), what).toBe(true);
    const got = (v as string[]).map(loose);
    expect(new Set(got).size, `${what}: deduplicated`).toBe(got.length);
    expect([...got].sort(), what).toEqual(expected.map(loose).sort());
  }

  /** Every item has a citation on its page whose quote holds it. */
  function expectEachCited(a: EngineAnswer, items: string[], page: number, what: string) {
    if (a.status !== 'SUCCESS') return;
    for (const item of items) {
      expect(
        a.citations.some((x) => x.page === page && loose(x.quote).includes(loose(item))),
        `${what}: "${item}" cited on page ${page}`,
      ).toBe(true);
    }
  }

  it('2.2 list_scalar: the parties "by and between A and B" / "among A, B and C", each once', async () => {
    for (const rng of rounds('list parties')) {
      // The signature block names the parties again: still each once.
      const { contract: c, doc } = await newContract(rng);
      const a = await ask(
        column('Who are the parties to the agreement?', 'list_scalar'),
        fileSubject(doc),
        'parties',
      );
      const what = msg(c.parties.sentence, c.parties.value, a);
      expectItems(a, c.parties.value, what);
      expectEachCited(a, c.parties.value, c.parties.page, what);
    }
  });

  const listCases = DELIVERABLE_HEADINGS.flatMap((heading) => BULLETS.map((bullet) => ({ heading, bullet })));
  it.each(listCases)(
    '2.2 list_scalar: every bullet under $heading (bullets $bullet)',
    async ({ heading, bullet }) => {
      for (const rng of rounds(`list bullets ${heading} ${bullet}`)) {
        const { contract: c, doc } = await newContract(rng, { deliverablesHeading: heading, bullet });
        const a = await ask(
          column('List the deliverables.', 'list_scalar'),
          fileSubject(doc),
          'deliverables',
        );
        const what = msg(c.deliverables.sentence, c.deliverables.value, a);
        expectItems(a, c.deliverables.value, what);
        expectEachCited(a, c.deliverables.value, c.deliverables.page, what);
      }
    },
  );

  it('2.2 list_scalar: a table column ("Name" of the key personnel table)', async () => {
    for (const rng of rounds('list table')) {
      const { contract: c, doc } = await newContract(rng);
      const a = await ask(
        column('List the names of the key personnel.', 'list_scalar'),
        fileSubject(doc),
        'personnel',
      );
      const what = msg(c.personnel.sentence, c.personnel.value, a);
      expectItems(a, c.personnel.value, what);
      expectEachCited(a, c.personnel.value, c.personnel.page, what);
    }
  });

  it('2.4 single-file row: one fact, equal to the cell answer (2.6)', async () => {
    const { doc } = await newContract(rngFor('single fact'));
    for (const [prompt, type] of [
      ['What is the effective date of the agreement?', 'date'],
      ['What is the total contract price?', 'number'],
      ['Who are the parties to the agreement?', 'list_scalar'],
    ] as const) {
      const a = await ask(column(prompt, type), fileSubject(doc), prompt);
      expect(a.facts, prompt).toHaveLength(1);
      const f = a.facts[0]!;
      expect(f.status).toBe(a.status);
      if (a.status === 'SUCCESS') {
        expect({ value: f.value, citations: f.citations, confidence: f.confidence }, prompt).toEqual({
          value: a.value,
          citations: a.citations,
          confidence: a.confidence,
        });
      }
    }
  });
});

// ---------- pictures ----------

function overlapsExactly(box: Box | null, expected: Box, tolerance = 0.003): boolean {
  return !!box?.every((v, k) => Math.abs(v - expected[k]!) <= tolerance);
}

describe('local engine, image and image_list on generated reports (interface.md 2.2, 2.4 regions)', () => {
  const describeRegions = (a: EngineAnswer) =>
    a.status === 'SUCCESS' && Array.isArray(a.value)
      ? JSON.stringify(a.value.map((r) => ({ page: r.page, box: r.box, caption: r.caption })))
      : describeAnswer(a);

  async function newReport(rng: Rng, pictures = true): Promise<{ report: Report; doc: EngineDocument }> {
    const report = makeReport(rng, { pictures });
    return { report, doc: engineDocument(await readEnginePages(report.pdf)) };
  }

  it.each([
    {
      title: '"the company logo" is one region, the logo picture on page 1',
      kind: 'logo',
      prompt: 'The company logo',
    },
    {
      title: '"the signature" is the signature picture on the last page',
      kind: 'signature',
      prompt: 'The authorized signature',
    },
  ] as const)('2.2 image: $title', async ({ kind, prompt }) => {
    for (const rng of rounds(kind === 'logo' ? 'image logo' : 'image signature')) {
      const { report, doc } = await newReport(rng);
      const picture = report.pictures.find((p) => p.kind === kind)!;
      const a = await ask(column(prompt, 'image'), fileSubject(doc), kind);
      const what = `seed ${SEED}: ${kind} at p${picture.page} ${picture.box.map((n) => n.toFixed(3))}, got ${describeRegions(a)}`;
      const regions = answered(a, what) as Region[];
      expect(regions, what).toHaveLength(1);
      expect(regions[0]!.page, what).toBe(picture.page);
      expect(overlapsExactly(regions[0]!.box, picture.box), what).toBe(true);
    }
  });

  it('2.2 image_list: every figure of the report, each a picture of its page', async () => {
    for (const rng of rounds('image list')) {
      const { report, doc } = await newReport(rng);
      const figures = report.pictures.filter((p) => p.kind === 'figure');
      const a = await ask(column('Every figure in the report', 'image_list'), fileSubject(doc), 'figures');
      const what = `seed ${SEED}: figures ${JSON.stringify(figures.map((f) => ({ page: f.page, caption: f.caption })))}, got ${describeRegions(a)}`;
      const regions = answered(a, what) as Region[];
      for (const f of figures) {
        expect(
          regions.some((r) => r.page === f.page && overlapsExactly(r.box, f.box)),
          `${what}: "${f.caption}" on page ${f.page}`,
        ).toBe(true);
      }
      // Regions are pictures that exist: no invented boxes.
      for (const r of regions) {
        expect(
          report.pictures.some((p) => p.page === r.page && overlapsExactly(r.box, p.box)),
          `${what}: region p${r.page} ${r.box} is a picture`,
        ).toBe(true);
      }
    }
  });

  it('2.4 image without pictures: the whole relevant page, box null', async () => {
    for (const rng of rounds('image none')) {
      const { report, doc } = await newReport(rng, false);
      expect(doc.pages.every((p) => p.images.length === 0)).toBe(true);
      for (const type of ['image', 'image_list'] as const) {
        const a = await ask(column('The chart of revenue by region', type), fileSubject(doc), type);
        const what = `seed ${SEED}: ${type}, revenue discussed on page ${report.revenuePage}, got ${describeRegions(a)}`;
        const regions = answered(a, what) as Region[];
        expect(regions.length, what).toBeGreaterThanOrEqual(1);
        if (type === 'image') expect(regions, what).toHaveLength(1);
        expect(
          regions.map((r) => r.box),
          what,
        ).toEqual(regions.map(() => null));
        expect(regions[0]!.page, what).toBe(report.revenuePage);
      }
    }
  });
});

// ---------- nothing to find ----------

describe('local engine, a document without the answer (interface.md 2.4; D5)', () => {
  const cases: [string, OutputType, ColumnConfig | null][] = [
    ['What is the effective date of the agreement?', 'date', null],
    ['What is the total contract price?', 'number', null],
    ["Which state's law governs the agreement?", 'text_quote', null],
    [
      "Which state's law governs the agreement?",
      'categorical',
      { categories: ['Texas', 'Ohio', 'Delaware'] },
    ],
    ['List the deliverables.', 'list_scalar', null],
  ];
  it.each(cases)(
    'D5 / 2.4: SUCCESS with {type, value: null}, not an invented value, the confidence that it is absent: "%s" (%s)',
    async (prompt, type, config) => {
      for (const rng of rounds(`null ${prompt} ${type}`)) {
        const { contract: c, doc } = await newContract(rng, {
          omit: ['effectiveDate', 'price', 'governingLaw', 'deliverables'],
          incorporation: false,
        });
        const a = await ask(column(prompt, type, { config }), fileSubject(doc), prompt);
        const what = `seed ${SEED}: "${prompt}" on a contract without it (title ${c.title}), got ${describeAnswer(a)}`;
        expect(a.status, what).toBe('SUCCESS');
        if (a.status !== 'SUCCESS') continue;
        expect(a.value, what).toEqual({ type, value: null });
        expect(a.citations, what).toEqual([]);
        // Issue 13: confidence is the calibrated probability that the answer (here: "not stated")
        // is right, and D5 answers null only when the engine is confident the document lacks it.
        expect(a.confidence, what).toBeGreaterThanOrEqual(0.5);
        expect(a.confidence, what).toBeLessThanOrEqual(1);
      }
    },
  );
});

// ---------- determinism ----------

describe('local engine is deterministic (D5)', () => {
  it('D5: the same question on the same document answers the same, twice and from a fresh engine', async () => {
    const rng = rngFor('deterministic');
    const { contract, doc } = await newContract(rng);
    const again = engineDocument(doc.pages, { fileId: doc.fileId });
    const copy = engineDocument(structuredClone(doc.pages), { fileId: `${doc.fileId}_copy` });
    const questions: [string, OutputType, ColumnConfig | null][] = [
      ['What is the effective date of the agreement?', 'date', null],
      ['What is the total contract price?', 'number', null],
      ["Which state's law governs the agreement?", 'text_quote', null],
      ["Which state's law governs the agreement?", 'categorical', { categories: [...STATES] }],
      ['Who are the parties to the agreement?', 'list_scalar', null],
      [contract.clauses[0]!.topic.question, 'boolean', null],
    ];
    for (const [prompt, type, config] of questions) {
      const col = column(prompt, type, { config });
      const first = await ask(col, fileSubject(doc), prompt);
      const second = await ask(col, fileSubject(doc), prompt);
      const fresh = await createLocalEngine('rules').answer(col, fileSubject(again));
      expect(second, prompt).toEqual(first);
      expect(fresh, prompt).toEqual(first);
      // Another file with the same pages: the same answer, cited in that file.
      const other = await ask(col, fileSubject(copy), prompt);
      const relabel = (a: EngineAnswer) =>
        JSON.parse(JSON.stringify(a).replaceAll(`${doc.fileId}_copy`, doc.fileId));
      expect(relabel(other), prompt).toEqual(first);
    }
  });
});

// ---------- bundles ----------

describe('local engine on bundles (interface.md 2.2 isCompositional, 2.6 facts; D5)', () => {
  const DAY = 86_400_000;

  /** Two contracts of one deal with different dates and prices; membership set by the caller. */
  /**
   * Written forms the single-document cases cover: bundle cases test the reduction, so
   * each document's own answer should not be what fails.
   */
  const plain = (rng: Rng, opts: ContractOptions = {}): ContractOptions => ({
    dateForm: rng.pick(['Month D, YYYY', 'D Month YYYY', 'YYYY-MM-DD'] as const),
    amountForm: rng.pick(['$1,234,567.89', '£ 12,750'] as const),
    parties: rng.sample(COMPANIES, 2),
    ...opts,
  });

  /** Two contracts of one deal with different dates and prices. */
  async function pair(rng: Rng) {
    const a = makeContract(rng, plain(rng));
    let b = makeContract(rng, plain(rng));
    for (
      let i = 0;
      i < 10 && (b.effectiveDate.value === a.effectiveDate.value || b.price.value === a.price.value);
      i++
    ) {
      b = makeContract(rng, plain(rng));
    }
    return { a, b };
  }

  function factOf(answer: EngineAnswer, fileId: string): Fact {
    return answer.facts.find((f) => f.fileId === fileId)!;
  }

  it('2.6 non-compositional: conflicting values go to the newest effectiveAt, whichever is primary; one fact per document', async () => {
    for (const rng of rounds('bundle newest')) {
      const { a, b } = await pair(rng);
      const t0 = Date.UTC(2020, 0, 1) + rng.int(0, 1000) * DAY;
      const newerIsPrimary = rng.chance(0.5);
      const older = await readContract(a, {
        isPrimary: !newerIsPrimary,
        role: 'original',
        effectiveAt: t0,
        sortOrder: 0,
      });
      const newer = await readContract(b, {
        isPrimary: newerIsPrimary,
        role: 'amendment',
        effectiveAt: t0 + rng.int(1, 900) * DAY,
        sortOrder: 1,
      });
      const subject: EngineSubject = { kind: 'bundle', documents: rng.shuffle([older, newer]) };
      const label = `seed ${SEED}: original "${a.effectiveDate.sentence}" / "${a.price.sentence}" vs newer amendment (primary: ${newerIsPrimary}) "${b.effectiveDate.sentence}" / "${b.price.sentence}"`;
      for (const [prompt, type, key] of [
        ['What is the effective date of the agreement?', 'date', 'effectiveDate'],
        ['What is the total contract price?', 'number', 'price'],
      ] as const) {
        const answer = await ask(column(prompt, type), subject, prompt);
        const what = `${label}: ${prompt} → ${describeAnswer(answer)}`;
        expect(answered(answer, what), what).toBe(b[key].value);
        expect(
          answer.status === 'SUCCESS' && answer.citations.some((c) => c.fileId === newer.fileId),
          what,
        ).toBe(true);
        // Per-document workings: each document's own value, with its membership (checked in ask).
        expect(answer.facts, what).toHaveLength(2);
        expect(
          (factOf(answer, older.fileId).value as { value: unknown } | null)?.value,
          `${what} (older fact)`,
        ).toBe(a[key].value);
        expect(
          (factOf(answer, newer.fileId).value as { value: unknown } | null)?.value,
          `${what} (newer fact)`,
        ).toBe(b[key].value);
      }
    }
  });

  it('2.6 non-compositional: without effectiveAt the primary document wins a conflict, whatever the order', async () => {
    for (const rng of rounds('bundle primary')) {
      const { a, b } = await pair(rng);
      const primaryFirst = rng.chance(0.5);
      const primary = await readContract(a, {
        isPrimary: true,
        role: 'master',
        sortOrder: primaryFirst ? 0 : 1,
      });
      const other = await readContract(b, {
        isPrimary: false,
        role: 'schedule',
        sortOrder: primaryFirst ? 1 : 0,
      });
      const subject: EngineSubject = { kind: 'bundle', documents: rng.shuffle([primary, other]) };
      const label = `seed ${SEED}: primary "${a.effectiveDate.sentence}" / "${a.price.sentence}" vs "${b.effectiveDate.sentence}" / "${b.price.sentence}"`;
      for (const [prompt, type, key] of [
        ['What is the effective date of the agreement?', 'date', 'effectiveDate'],
        ['What is the total contract price?', 'number', 'price'],
      ] as const) {
        const answer = await ask(column(prompt, type), subject, prompt);
        const what = `${label}: ${prompt} → ${describeAnswer(answer)}`;
        expect(answered(answer, what), what).toBe(a[key].value);
        expect(
          answer.status === 'SUCCESS' && answer.citations.every((c) => c.fileId === primary.fileId),
          what,
        ).toBe(true);
      }
    }
  });

  it('2.6 non-compositional: lists are united, each item once, primary first', async () => {
    for (const rng of rounds('bundle union')) {
      // Names written without a final period before "(the ...)": the preamble case of the
      // single-document tests covers those; this case is about the reduction.
      const [own, shared, newcomer] = rng.sample(
        COMPANIES.filter((c) => c.endsWith('LLC')),
        3,
      );
      const first = makeContract(rng, plain(rng, { parties: [own!, shared!] }));
      const second = makeContract(rng, plain(rng, { parties: [shared!, newcomer!] }));
      const d1 = await readContract(first, { isPrimary: true, role: 'master', sortOrder: 0 });
      const d2 = await readContract(second, { isPrimary: false, role: 'side letter', sortOrder: 1 });
      const subject: EngineSubject = { kind: 'bundle', documents: rng.shuffle([d1, d2]) };
      const answer = await ask(
        column('Who are the parties to the agreement?', 'list_scalar'),
        subject,
        'union',
      );
      const expected = [own!, shared!, newcomer!];
      const facts = [d1, d2].map(
        (d) => (factOf(answer, d.fileId).value as { value: string[] | null }).value ?? [],
      );
      const what = `seed ${SEED}: "${first.parties.sentence}" + "${second.parties.sentence}" expected ${JSON.stringify(expected)}, got ${describeAnswer(answer)}; facts ${JSON.stringify(facts)}`;
      const got = (answered(answer, what) as string[]).map(loose);
      expect(new Set(got).size, `${what}: each once`).toBe(got.length);
      // The rule: the union of the documents' own lists, the primary's items first.
      const united = [...new Set(facts.flat().map(loose))];
      expect(got, `${what}: union of the facts`).toEqual(united);
      expect([...got].sort(), what).toEqual(expected.map(loose).sort());
    }
  });

  it('2.6 non-compositional: a value found in one document only; the other document’s fact is null', async () => {
    for (const rng of rounds('bundle one side')) {
      const a = makeContract(rng, plain(rng, { omit: ['governingLaw'], incorporation: false }));
      const b = makeContract(rng, plain(rng, { incorporation: false }));
      const d1 = await readContract(a, { isPrimary: true, role: 'master', sortOrder: 0 });
      const d2 = await readContract(b, {
        isPrimary: false,
        role: 'addendum',
        sortOrder: 1,
        effectiveAt: Date.UTC(2024, 5, 1),
      });
      const subject: EngineSubject = { kind: 'bundle', documents: [d1, d2] };
      const categories = rng.shuffle([
        b.governingLaw.value,
        ...rng.sample(
          STATES.filter((s) => s !== b.governingLaw.value),
          4,
        ),
      ]);
      const answer = await ask(
        column("Which state's law governs the agreement?", 'categorical', { config: { categories } }),
        subject,
        'one side',
      );
      const what = `seed ${SEED}: only the addendum says "${b.governingLaw.sentence}", got ${describeAnswer(answer)}; facts ${JSON.stringify(answer.facts.map((f) => f.value))}`;
      expect(answered(answer, what), what).toBe(b.governingLaw.value);
      expectCited(answer, d2.fileId, b.governingLaw.page, b.governingLaw.value, what);
      expect(factOf(answer, d1.fileId).value, what).toEqual({ type: 'categorical', value: null });
      expect(factOf(answer, d2.fileId).value, what).toEqual({
        type: 'categorical',
        value: b.governingLaw.value,
      });
    }
  });

  it('2.2 isCompositional: one answer over the whole subject, from the document that holds it', async () => {
    for (const rng of rounds('bundle compositional')) {
      const a = makeContract(
        rng,
        plain(rng, { omit: ['governingLaw', 'effectiveDate'], incorporation: false }),
      );
      const b = makeContract(rng, plain(rng, { omit: ['price'], incorporation: false }));
      const d1 = await readContract(a, { isPrimary: true, role: 'master', sortOrder: 0 });
      const d2 = await readContract(b, { isPrimary: false, role: 'side letter', sortOrder: 1 });
      const subject: EngineSubject = { kind: 'bundle', documents: rng.shuffle([d1, d2]) };
      for (const [prompt, type, expected, page, written, doc] of [
        [
          "Which state's law governs the agreement?",
          'categorical',
          b.governingLaw.value,
          b.governingLaw.page,
          b.governingLaw.quoted,
          d2,
        ],
        [
          'What is the effective date of the agreement?',
          'date',
          b.effectiveDate.value,
          b.effectiveDate.page,
          b.effectiveDate.quoted,
          d2,
        ],
        ['What is the total contract price?', 'number', a.price.value, a.price.page, a.price.quoted, d1],
      ] as const) {
        const config = type === 'categorical' ? { categories: [...STATES] } : null;
        const answer = await ask(column(prompt, type, { isCompositional: true, config }), subject, prompt);
        const what = `seed ${SEED}: compositional "${prompt}" expected ${expected} from ${doc === d1 ? 'the master' : 'the side letter'}, got ${describeAnswer(answer)}`;
        expect(answered(answer, what), what).toBe(expected);
        expectCited(answer, doc.fileId, page, written, what);
      }
    }
  });
});

// ---------- through the real pipeline ----------

describe('local engine on documents ingested through the pipeline (upload → job → file_pages)', () => {
  let h: Harness;
  let ws: TestWorkspace;

  beforeAll(async () => {
    h = await startHarness({ LOCAL_SCORER: 'rules' }, { worker: true });
    ws = await h.workspace({ credits: 100 });
  });
  afterAll(() => h?.close());

  async function ingest(data: Uint8Array, name: string): Promise<EngineDocument> {
    const r = await h.upload(ws, { file: { data, name } });
    expect(r.status, await r.clone().text()).toBe(200);
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    expect(await h.waitJob(ws, job.id, 120_000)).toMatchObject({ status: 'SUCCESS' });
    const pages = (await loadEnginePages(h.db, [job.fileId])).get(job.fileId)!;
    return engineDocument(pages, { fileId: job.fileId, fileName: name });
  }

  it('2.4 / D5: a generated contract: date, number, categorical, list and yes/no answered and cited on the stored pages', async () => {
    const rng = rngFor('e2e contract');
    const c = makeContract(rng);
    const doc = await ingest(await contractPdf(c), 'contract.pdf');
    expect(doc.pages).toHaveLength(c.pageCount);
    const subject = fileSubject(doc);

    const date = await ask(
      column('What is the effective date of the agreement?', 'date'),
      subject,
      'e2e date',
    );
    let what = msg(c.effectiveDate.sentence, c.effectiveDate.value, date);
    expect(answered(date, what), what).toBe(c.effectiveDate.value);
    expectCited(date, doc.fileId, c.effectiveDate.page, c.effectiveDate.quoted, what);

    const price = await ask(column('What is the total contract price?', 'number'), subject, 'e2e price');
    what = msg(c.price.sentence, c.price.value, price);
    expect(answered(price, what), what).toBe(c.price.value);
    expectCited(price, doc.fileId, c.price.page, c.price.quoted, what);

    const categories = [
      c.governingLaw.value,
      ...STATES.filter((s) => s !== c.governingLaw.value).slice(0, 7),
    ];
    const state = await ask(
      column("Which state's law governs the agreement?", 'categorical', { config: { categories } }),
      subject,
      'e2e state',
    );
    what = msg(c.governingLaw.sentence, c.governingLaw.value, state);
    expect(answered(state, what), what).toBe(c.governingLaw.value);
    expectCited(state, doc.fileId, c.governingLaw.page, c.governingLaw.value, what);

    for (const clause of c.clauses) {
      const yn = await ask(column(clause.topic.question, 'boolean'), subject, `e2e ${clause.topic.id}`);
      what = `${msg(clause.sentence, clause.value, yn)} for "${clause.topic.question}"`;
      expect(answered(yn, what), what).toBe(clause.value);
    }

    const parties = await ask(
      column('Who are the parties to the agreement?', 'list_scalar'),
      subject,
      'e2e parties',
    );
    what = msg(c.parties.sentence, c.parties.value, parties);
    expect(((answered(parties, what) as string[]) ?? []).map(loose).sort(), what).toEqual(
      c.parties.value.map(loose).sort(),
    );
  });

  it('2.4 regions: a generated report: the logo region found from the stored picture boxes', async () => {
    const rng = rngFor('e2e report');
    const report = makeReport(rng);
    const doc = await ingest(report.pdf, 'report.pdf');
    const logo = report.pictures.find((p) => p.kind === 'logo')!;
    const a = await ask(column('The company logo', 'image'), fileSubject(doc), 'e2e logo');
    const what = `seed ${SEED}: logo at p${logo.page} ${logo.box}, got ${describeAnswer(a)}`;
    const regions = answered(a, what) as Region[];
    expect(regions, what).toHaveLength(1);
    expect(regions[0]!.page, what).toBe(logo.page);
    expect(overlapsExactly(regions[0]!.box, logo.box), what).toBe(true);
  });
});
