/**
 * Issue 13, "Answers on documents the engine has never seen": the engine must be general,
 * so its code and comments (every .ts file under src/engine/) must not name the fields or
 * datasets of the labelled evaluation corpora (../shared/corpus/extraction/fields.json and
 * ../shared/corpus/extraction/invoices/fields.json). A field named in the engine is a
 * sign of an answer tuned to one dataset rather than to the question asked.
 *
 * What counts as naming:
 * - a multi-word field (snake_case in the corpus) written as snake_case, camelCase,
 *   kebab-case or as space-separated words, in any letter case ("gross_amount",
 *   "grossAmount", "gross-amount", "Gross Amount");
 * - a single-word field, or the first word of a multi-word field ("flight" of flight_from),
 *   as a whole word (camelCase parts count: "isAdvertiser"), plural included, unless it is
 *   on the short ALLOWED list of ordinary words below;
 * - a dataset name or its first part ("kleister", "deepform", "invoice2data", "parsee"),
 *   anywhere, even inside another word.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFilesUnder as engineFiles } from './helpers/source-files.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ENGINE_DIR = path.join(ROOT, 'src', 'engine');
const CORPUS = path.resolve(ROOT, '..', 'shared', 'corpus');
const FIELD_FILES = [
  path.join(CORPUS, 'extraction', 'fields.json'),
  path.join(CORPUS, 'extraction', 'invoices', 'fields.json'),
];

/** The names of both fields.json files, for checkouts without ../shared/corpus. */
const FALLBACK: { dataset: string; field: string }[] = [
  ...['effective_date', 'party', 'jurisdiction', 'term', 'term_months', 'has_fixed_term'].map((field) => ({
    dataset: 'kleister-nda',
    field,
  })),
  ...['advertiser', 'contract_num', 'flight_from', 'flight_to', 'gross_amount'].map((field) => ({
    dataset: 'deepform-2020',
    field,
  })),
  ...['issuer', 'invoice_number', 'date', 'amount', 'currency'].map((field) => ({
    dataset: 'invoice2data',
    field,
  })),
  ...['issuer', 'date', 'amount', 'currency'].map((field) => ({ dataset: 'parsee-invoices', field })),
];

/**
 * Ordinary words any document engine needs, allowed on their own (a multi-word field using
 * them, such as "effective date" or "invoice number", is still a hit):
 */
const ALLOWED: Record<string, string> = {
  date: 'an output type (interface.md 2.2 `date`); every document has dates',
  amount: 'money amounts are what `number` columns read on any financial document',
  term: 'the duration of any agreement; also "search term"',
  party: 'every agreement has parties',
  currency: 'any amount may carry one; number answers drop it (2.2)',
  contract: 'a kind of document the service reads (first word of contract_num)',
  invoice: 'a kind of document the service reads (first word of invoice_number)',
  effective: 'ordinary legal English, "effective as of" (first word of effective_date)',
  has: 'a function word (first word of has_fixed_term)',
};

interface CorpusNames {
  /** snake_case fields of more than one word. */
  multiWord: string[];
  /** Whole words not to use: single-word fields and first words of multi-word ones. */
  words: string[];
  /** Dataset names and their first parts: not to appear anywhere. */
  datasets: string[];
}

function corpusNames(entries: { dataset: string; field: string }[]): CorpusNames {
  const multiWord = new Set<string>();
  const words = new Set<string>();
  const datasets = new Set<string>();
  for (const { dataset, field } of entries) {
    const f = field.toLowerCase();
    const parts = f.split('_').filter(Boolean);
    if (parts.length > 1) multiWord.add(parts.join('_'));
    if (!(parts[0]! in ALLOWED)) words.add(parts[0]!);
    const d = dataset.toLowerCase();
    datasets.add(d);
    datasets.add(d.split(/[-_\s]/)[0]!);
  }
  return { multiWord: [...multiWord], words: [...words], datasets: [...datasets] };
}

function loadNames(): { names: CorpusNames; source: string } {
  const found = FIELD_FILES.filter((f) => existsSync(f));
  if (!existsSync(CORPUS) || found.length === 0)
    return { names: corpusNames(FALLBACK), source: 'fallback list' };
  const entries = found.flatMap(
    (f) => JSON.parse(readFileSync(f, 'utf8')) as { dataset: string; field: string }[],
  );
  return { names: corpusNames(entries), source: found.map((f) => path.relative(ROOT, f)).join(', ') };
}

interface Hit {
  line: number;
  /** The text as written in the file. */
  word: string;
  /** The corpus name it spells. */
  name: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isAlnum = (c: string | undefined) => c !== undefined && /[A-Za-z0-9]/.test(c);
const isUpper = (c: string | undefined) => c !== undefined && /[A-Z]/.test(c);

/**
 * A whole word or identifier part: nothing alphanumeric on either side, except a camelCase
 * boundary (a lower-case letter or digit before an upper-case start, an upper-case letter
 * after a lower-case end).
 */
function atBoundary(line: string, start: number, end: number): boolean {
  const before = line[start - 1];
  const after = line[end];
  const first = line[start];
  const last = line[end - 1];
  const left = !isAlnum(before) || (isUpper(first) && !isUpper(before));
  const right = !isAlnum(after) || (isUpper(after) && !isUpper(last));
  return left && right;
}

/** Every place a text names one of the corpus names, by the rules at the top of this file. */
function findNames(text: string, names: CorpusNames): Hit[] {
  const patterns: { name: string; re: RegExp; whole: boolean }[] = [
    ...names.multiWord.map((name) => ({
      name,
      // snake_case, kebab-case, spaced words, or run together (camelCase, PascalCase).
      re: new RegExp(`${name.split('_').map(escapeRe).join('(?:[_\\-\\s]+)?')}(?:e?s)?`, 'gi'),
      whole: true,
    })),
    ...names.words.map((name) => ({ name, re: new RegExp(`${escapeRe(name)}(?:e?s)?`, 'gi'), whole: true })),
    ...names.datasets.map((name) => ({ name, re: new RegExp(escapeRe(name), 'gi'), whole: false })),
  ];
  const hits: Hit[] = [];
  text.split('\n').forEach((line, i) => {
    // Spans already reported on this line: "Gross Amount" is one hit, not also "Gross".
    const taken: [number, number][] = [];
    for (const { name, re, whole } of patterns) {
      for (const m of line.matchAll(re)) {
        const [start, end] = [m.index, m.index + m[0].length];
        if (whole && !atBoundary(line, start, end)) continue;
        if (taken.some(([s, e]) => start < e && end > s)) continue;
        taken.push([start, end]);
        hits.push({ line: i + 1, word: m[0], name });
      }
    }
  });
  return hits;
}

describe('issue 13: the engine names no field or dataset of the labelled corpora', () => {
  const { names, source } = loadNames();

  it('the names come from the corpus fields.json files (or the fallback list) and are not empty', () => {
    console.info(
      `engine-corpus-names: from ${source}: fields ${JSON.stringify(names.multiWord)}, words ${JSON.stringify(names.words)}, datasets ${JSON.stringify(names.datasets)}; allowed on their own: ${Object.keys(ALLOWED).join(', ')}`,
    );
    expect(names.multiWord.length).toBeGreaterThan(0);
    expect(names.words.length).toBeGreaterThan(0);
    expect(names.datasets.length).toBeGreaterThan(0);
    // The fallback stays in step with the corpus it stands in for.
    if (source !== 'fallback list') {
      const fallback = corpusNames(FALLBACK);
      expect([...names.multiWord].sort()).toEqual([...fallback.multiWord].sort());
      expect([...names.words].sort()).toEqual([...fallback.words].sort());
      expect([...names.datasets].sort()).toEqual([...fallback.datasets].sort());
    }
  });

  it('the matcher flags every written form of a name, and leaves ordinary words alone', () => {
    const flagged = (snippet: string) => findNames(snippet, names).map((h) => h.name);
    // Multi-word fields, in every spelling.
    expect(flagged(`const x = 'grossAmount';`)).toContain('gross_amount');
    expect(flagged('row.gross_amount ?? 0')).toContain('gross_amount');
    expect(flagged("label: 'gross-amount'")).toContain('gross_amount');
    expect(flagged('// the "Gross Amount" column of a table')).toContain('gross_amount');
    expect(flagged('const GROSS_AMOUNTS = 1;')).toContain('gross_amount');
    expect(flagged('function parseInvoiceNumber() {}')).toContain('invoice_number');
    expect(flagged('if (q.hasFixedTerm) return;')).toContain('has_fixed_term');
    expect(flagged('// What is the effective date?')).toContain('effective_date');
    expect(flagged('const termMonths = 12;')).toContain('term_months');
    // Single words from one dataset's vocabulary, as words or identifier parts.
    expect(flagged("['advertiser', 'client']")).toContain('advertiser');
    expect(flagged('const isAdvertiser = true;')).toContain('advertiser');
    expect(flagged('// requests in flight')).toContain('flight');
    expect(flagged('const flightDates = [];')).toContain('flight');
    expect(flagged('Issuers: the seller')).toContain('issuer');
    expect(flagged("'jurisdiction'")).toContain('jurisdiction');
    // Datasets, anywhere.
    expect(flagged('// tuned on Kleister-NDA')).toContain('kleister-nda');
    expect(flagged('const kleisterNdaFix = 1;')).toContain('kleister');
    expect(flagged('const deepformFix = 1;')).toContain('deepform');
    expect(flagged('// see invoice2data templates')).toContain('invoice2data');
    expect(flagged('parseeLayout()')).toContain('parsee');
    // Ordinary words, and words that merely contain a name.
    expect(
      findNames(
        [
          'const total = amount + tax; // the invoice date, the contract term, the party and currency',
          'const dateOf = (d: Date) => d; // number, effective as of, has',
          'const grossly = 1; const engrossAmount = 2; const outflights = 3;',
        ].join('\n'),
        names,
      ),
    ).toEqual([]);
    // Lines are reported 1-based with the text as written.
    expect(findNames('a\nb\nconst c = "Flight Dates";', names)).toContainEqual({
      line: 3,
      word: 'Flight',
      name: 'flight',
    });
  });

  it('no .ts file under src/engine/ names a corpus field or dataset (code and comments)', () => {
    const files = engineFiles(ENGINE_DIR);
    expect(files.length, `no .ts files under ${ENGINE_DIR}`).toBeGreaterThan(0);
    const report: string[] = [];
    for (const file of files) {
      for (const hit of findNames(readFileSync(file, 'utf8'), names)) {
        report.push(`${path.relative(ROOT, file)}:${hit.line}: "${hit.word}" names ${hit.name}`);
      }
    }
    if (report.length) console.error(`engine-corpus-names: ${report.length} hits\n${report.join('\n')}`);
    expect(report, `${report.length} corpus names in src/engine:\n${report.join('\n')}`).toEqual([]);
  });
});
