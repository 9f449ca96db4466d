/**
 * The bench's contracts: deterministic 10-page service agreements with parties, an effective
 * date, fees, a term, a termination clause, a governing-law clause and a signature page, and
 * the answers they state. Shared by `bench:engine` and a test that holds the engine to them.
 */
import type { OutputType } from '../src/domain/columns.ts';
import type { EngineColumn } from '../src/engine/types.ts';
import { column } from '../train/examples.ts';
import type { FieldSpec, LabelRow } from './eval/score.ts';

export const PAGES = 10;
const LINES_PER_PAGE = 40;
const LINE_CHARS = 88;

const STATES =
  'Alabama,Alaska,Arizona,Arkansas,California,Colorado,Connecticut,Delaware,District of Columbia,Florida,Georgia,Hawaii,Idaho,Illinois,Indiana,Iowa,Kansas,Kentucky,Louisiana,Maine,Maryland,Massachusetts,Michigan,Minnesota,Mississippi,Missouri,Montana,Nebraska,Nevada,New Hampshire,New Jersey,New Mexico,New York,North Carolina,North Dakota,Ohio,Oklahoma,Oregon,Pennsylvania,Rhode Island,South Carolina,South Dakota,Tennessee,Texas,Utah,Vermont,Virginia,Washington,West Virginia,Wisconsin,Wyoming'.split(
    ',',
  );
const COMPANIES = [
  'Northwind Logistics, Inc.',
  'Contoso Holdings LLC',
  'Fabrikam Pharmaceuticals Corp.',
  'Tailspin Aerospace, Inc.',
  'Litware Software Group Ltd.',
  'Adventure Works Cycles LLC',
  'Proseware Analytics, Inc.',
  'Wingtip Toys Company',
  'Blue Yonder Airlines, Inc.',
  'Coho Winery LP',
  'Alpine Ski House Corporation',
  'Margie Travel Services LLC',
  'Trey Research, Inc.',
  'Lucerne Publishing Co.',
  'Humongous Insurance Group',
  'Graphic Design Institute LLC',
  'Woodgrove Bank, N.A.',
  'Southridge Video Corporation',
];
const PEOPLE = [
  'Jane A. Whitfield',
  'Robert Okafor',
  'Maria L. Santos',
  'David Chen',
  'Laura Brennan',
  'Samuel Ortiz',
];
const MONTHS = 'January February March April May June July August September October November December'.split(
  ' ',
);
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five'];
const VOCABULARY = (
  'the agreement supplier customer services deliverables shall within days of receipt written notice party ' +
  'parties confidential information obligations warranty liability damages indemnify reasonable efforts ' +
  'including without limitation any all such other applicable law schedule statement of work acceptance ' +
  'invoice payment records audit personnel subcontractor insurance intellectual property license rights ' +
  'materials performance standards reports meeting representatives dispute resolution consent assignment'
).split(' ');

export interface Truth {
  effectiveDate: string;
  amount: number;
  termYears: number;
  state: string;
  convenience: boolean;
  parties: string[];
}

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > LINE_CHARS) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** One deterministic 10-page contract and the answers it states. */
export function makeContract(i: number): { pages: string[][]; truth: Truth } {
  let seed = 1000 + i;
  const rand = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed >>> 16;
  };
  const prose = (sentences: number) => {
    const out: string[] = [];
    for (let s = 0; s < sentences; s++) {
      const words = Array.from({ length: 12 + (rand() % 10) }, () => VOCABULARY[rand() % VOCABULARY.length]!);
      words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
      out.push(`${words.join(' ')}.`);
    }
    return out.join(' ');
  };
  const supplier = COMPANIES[i % COMPANIES.length]!;
  const customer = COMPANIES[(i * 7 + 5) % COMPANIES.length]!;
  const date = new Date(Date.UTC(2015 + (i % 9), (i * 5) % 12, 1 + ((i * 11) % 28)));
  const dateText = `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
  const amount = 10_000 + ((i * 7919) % 500) * 250;
  const amountText = `$${amount.toLocaleString('en-US')}.00`;
  const termYears = 1 + (i % 5);
  const state = STATES[(i * 13 + 4) % STATES.length]!;
  const officeState = STATES[(i * 17 + 9) % STATES.length]!;
  const convenience = i % 2 === 0;
  const signers = [PEOPLE[i % PEOPLE.length]!, PEOPLE[(i + 3) % PEOPLE.length]!];

  const pages: string[][] = [];
  const page = (...paragraphs: string[]) => {
    const lines: string[] = [];
    for (const p of paragraphs) {
      if (lines.length) lines.push('');
      lines.push(...wrap(p));
    }
    while (lines.length < LINES_PER_PAGE - 1) lines.push(...wrap(prose(3)), '');
    pages.push([...lines.slice(0, LINES_PER_PAGE - 1), `Page ${pages.length + 1} of ${PAGES}`]);
  };
  page(
    'MASTER SERVICES AGREEMENT',
    `This Master Services Agreement (the "Agreement") is entered into as of ${dateText} (the "Effective Date") ` +
      `by and between ${supplier}, with offices at ${100 + i} Main Street, Springfield, ${officeState} ` +
      `("Supplier"), and ${customer} ("Customer"). Supplier and Customer are each a "Party".`,
    'RECITALS',
    prose(4),
  );
  page('1. Definitions.', prose(6), '2. Services.', prose(5));
  page(
    '3. Fees and Payment.',
    `In consideration of the Services, Customer shall pay Supplier total fees of ${amountText} (the "Total Fees"), ` +
      'invoiced monthly in arrears and payable within thirty (30) days of receipt of a correct invoice.',
    prose(5),
  );
  page(
    '4. Term.',
    `This Agreement commences on the Effective Date and continues for a period of ${NUMBER_WORDS[termYears]} ` +
      `(${termYears}) year${termYears === 1 ? '' : 's'}, unless terminated earlier as provided below.`,
    prose(5),
  );
  page(
    '5. Termination.',
    convenience
      ? 'Either Party may terminate this Agreement for convenience upon sixty (60) days prior written notice to the other Party.'
      : 'Neither Party may terminate this Agreement for convenience; either Party may terminate it only for a material breach not cured within thirty (30) days.',
    prose(5),
  );
  page('6. Confidentiality.', prose(8));
  page('7. Warranties.', prose(5), '8. Limitation of Liability.', prose(5));
  page(
    '9. Governing Law.',
    `This Agreement shall be governed by and construed in accordance with the laws of the State of ${state}, ` +
      'without regard to its conflict of laws principles.',
    prose(5),
  );
  page('10. Miscellaneous.', prose(8));
  page(
    'IN WITNESS WHEREOF, the Parties have executed this Agreement as of the Effective Date.',
    supplier,
    `By: ____________________  Name: ${signers[0]}  Title: Chief Executive Officer`,
    customer,
    `By: ____________________  Name: ${signers[1]}  Title: General Counsel`,
  );
  return {
    pages,
    truth: {
      effectiveDate: date.toISOString().slice(0, 10),
      amount,
      termYears,
      state,
      convenience,
      parties: [supplier, customer],
    },
  };
}

export interface BenchColumn {
  column: EngineColumn;
  /** Scoring spec and expected answer; null for image columns (no truth in these documents). */
  spec: FieldSpec | null;
  expect: (t: Truth) => LabelRow['answer'];
}

/** A column as the engine takes it, in the order of this file's table: type, then prompt. */
const col = (outputType: OutputType, prompt: string, config: EngineColumn['config'] = null) =>
  column(prompt, outputType, config);
const spec = (field: string, c: EngineColumn, match = 'exact'): FieldSpec => ({
  dataset: 'bench',
  field,
  outputType: c.outputType,
  prompt: c.prompt,
  config: c.config,
  match,
});
export const COLUMNS: BenchColumn[] = (() => {
  const term = col('text_quote', 'How long is the term of this agreement (e.g. "2 years")?');
  const fees = col('number', 'What are the total fees payable under this agreement, in US dollars?');
  const date = col('date', 'What is the effective date of this agreement? Answer as YYYY-MM-DD.');
  const conv = col('boolean', 'May either party terminate this agreement for convenience?');
  const law = col('categorical', 'Under the law of which US state is this agreement governed?', {
    categories: STATES,
  });
  const parties = col('list_scalar', 'List every party to this agreement (companies or individuals).');
  return [
    { column: term, spec: spec('term', term, '"<number> <unit>"'), expect: (t) => `${t.termYears} years` },
    { column: fees, spec: spec('fees', fees), expect: (t) => t.amount },
    { column: date, spec: spec('effective_date', date), expect: (t) => t.effectiveDate },
    { column: conv, spec: spec('convenience', conv), expect: (t) => t.convenience },
    { column: law, spec: spec('governing_law', law), expect: (t) => t.state },
    { column: parties, spec: spec('parties', parties), expect: (t) => t.parties },
    { column: col('image', 'Show the signature block.'), spec: null, expect: () => null },
    { column: col('image_list', 'Show every table or figure.'), spec: null, expect: () => null },
  ];
})();
