/**
 * One more source of training documents: the five-page services agreements the engine tests
 * draw (test/fixtures/contract.ts), with facts at random places among filler prose, written in
 * prose sentences rather than forms. Asked in phrasings of our own, not the tests' prompts.
 */
import {
  CLAUSES,
  type Contract,
  contractPdf,
  makeContract,
  readEnginePages,
  type Section,
  STATES,
} from '../test/fixtures/contract.ts';
import { column, documentOf, type Example } from './examples.ts';
import { hashSeed, makeRng } from './generate/rng.ts';
import type { GoldAnswer } from './generate/types.ts';

const OMITTABLE: Section[] = [
  'effectiveDate',
  'price',
  'interest',
  'adjustment',
  'term',
  'governingLaw',
  'frequency',
];
const FREQUENCIES = ['Monthly', 'Quarterly', 'Annually'];

type Ask = [
  key: string,
  type: Example['column']['outputType'],
  prompts: string[],
  gold: GoldAnswer,
  page: number,
  quote: string,
  config?: Example['column']['config'],
];

function questions(c: Contract): Ask[] {
  const has = (s: Section) => !c.omitted.has(s);
  const asks: Ask[] = [
    [
      'start',
      'date',
      [
        'When does this agreement take effect?',
        'Effective date',
        'From which date is the contract in force?',
      ],
      has('effectiveDate') ? c.effectiveDate.value : null,
      c.effectiveDate.page,
      c.effectiveDate.quoted,
    ],
    [
      'price',
      'number',
      [
        'What is the total price under this agreement?',
        'Contract value',
        'How much will the customer pay in total?',
      ],
      has('price') ? c.price.value : null,
      c.price.page,
      c.price.quoted,
    ],
    [
      'interest',
      'number',
      [
        'Interest charged on overdue payments, in percent',
        'What percentage of interest applies to late payments?',
        'Late interest rate (%)',
      ],
      has('interest') ? c.interest.value : null,
      c.interest.page,
      c.interest.quoted,
    ],
    [
      'adjustment',
      'number',
      [
        'Amount of the credit adjustment',
        'What credit adjustment is stated at signing?',
        'Credit adjustment figure',
      ],
      has('adjustment') ? c.adjustment.value : null,
      c.adjustment.page,
      c.adjustment.quoted,
    ],
    [
      'months',
      'number',
      [
        'For how many months does the initial term run?',
        'Initial term in months',
        'How many months is the agreement term?',
      ],
      has('term') ? c.term.value : null,
      c.term.page,
      c.term.quoted,
    ],
    [
      'law',
      'text_quote',
      [
        'Which state\u2019s laws govern this contract?',
        'Governing law',
        'The agreement is construed under the laws of which state?',
      ],
      has('governingLaw') ? c.governingLaw.value : null,
      c.governingLaw.page,
      c.governingLaw.quoted,
    ],
    [
      'law_state',
      'categorical',
      ['Governing-law state', 'Under which state\u2019s law is the agreement interpreted?', 'Choice of law'],
      has('governingLaw') ? c.governingLaw.value : null,
      c.governingLaw.page,
      c.governingLaw.quoted,
      { categories: [...STATES] },
    ],
    [
      'billing',
      'categorical',
      ['Invoicing frequency', 'How frequently does the supplier bill?', 'Billing cycle of the fees'],
      has('frequency') ? FREQUENCIES.find((f) => f.toLowerCase() === c.frequency.value)! : null,
      c.frequency.page,
      c.frequency.quoted,
      { categories: FREQUENCIES },
    ],
    [
      'parties',
      'list_scalar',
      ['Who are the parties to this agreement?', 'Contracting parties', 'Name every party to the contract'],
      c.parties.value,
      c.parties.page,
      c.parties.quoted,
    ],
    [
      'deliverables',
      'list_scalar',
      ['What must the supplier deliver?', 'List of deliverables', 'Which work products are to be delivered?'],
      c.deliverables.value,
      c.deliverables.page,
      c.deliverables.quoted,
    ],
    [
      'personnel',
      'list_scalar',
      ['Who are the key personnel?', 'Names of the key staff', 'Which people are named as key personnel?'],
      c.personnel.value,
      c.personnel.page,
      c.personnel.quoted,
    ],
  ];
  for (const clause of c.clauses) {
    const q = clause.topic.question;
    asks.push([
      `clause:${clause.topic.id}`,
      'boolean',
      [
        q,
        `According to the contract: ${q[0]!.toLowerCase()}${q.slice(1)}`,
        `${q.replace(/\?$/, '')} (yes or no)?`,
      ],
      clause.value,
      clause.page,
      clause.sentence,
    ]);
  }
  return asks;
}

export async function fixtureExamples(purpose: string, count: number): Promise<Example[]> {
  const out: Example[] = [];
  let turn = 0;
  for (let i = 0; i < count; i++) {
    const rng = makeRng(hashSeed('fixture', purpose, i));
    const omit = OMITTABLE.filter(() => rng.chance(0.15));
    const c = makeContract(rng, { omit });
    const doc = documentOf(`fixture_${purpose}_${i}`, await readEnginePages(await contractPdf(c)));
    for (const [key, type, prompts, gold, page, quote, config] of questions(c)) {
      for (const prompt of [prompts[turn % prompts.length]!, prompts[(turn + 1) % prompts.length]!]) {
        out.push({
          family: 'services-agreement',
          docId: doc.fileId,
          key,
          column: column(prompt, type, config ?? null),
          doc,
          gold,
          evidence: gold === null ? [] : [{ page, quote }],
        });
      }
      turn++;
    }
  }
  return out;
}

export { CLAUSES };
