/** Services agreements: parties, dates, fees, payment and notice periods, renewal, governing law. */
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { hashSeed, makeRng, type Rng } from '../rng.ts';
import {
  amount,
  companyName,
  duration,
  fmtDate,
  fmtNumber,
  isoOf,
  JOB_TITLES,
  LOCALES,
  numberWords,
  personName,
  proseDateStyle,
  randomDay,
  US_STATE_NAMES,
  usAddressIn,
} from '../text.ts';
import type { Family } from '../types.ts';
import { askTitle, boilerplate, type Clause, legalStyle, type Para, writeLegal } from './legal.ts';

const BILLING = ['Monthly', 'Quarterly', 'Annually', 'Per milestone'];
const DELIVERABLES = [
  'Monthly status reports',
  'A written assessment of current systems',
  'Training sessions for client staff',
  'Migration of existing data to the new platform',
  'Configuration of user accounts and permissions',
  'A final project report',
  'Quarterly performance reviews',
  'Documentation of all delivered work',
  'An implementation plan with milestones',
  'Support during the first month of operation',
];
const TITLES = [
  'Master Services Agreement',
  'Consulting Services Agreement',
  'Professional Services Agreement',
  'Maintenance and Support Agreement',
  'Services Agreement',
];

/** US dollars in prose: "$12,500.00", "USD 12,500", "twelve thousand dollars ($12,000.00)". */
export function proseDollars(rng: Rng, value: number): { text: string; quote: string } {
  const digits = fmtNumber(value, [',', '.'], Number.isInteger(value) && rng.chance(0.5) ? 0 : 2);
  const style = rng.int(0, Number.isInteger(value) ? 2 : 1);
  if (style === 0) return { text: `$${digits}`, quote: `$${digits}` };
  if (style === 1) return { text: `USD ${digits}`, quote: `USD ${digits}` };
  const whole = Math.floor(value);
  const words = whole < 1_000_000 ? `${numberWords(whole)} dollars` : 'the amount of';
  return { text: `${words} ($${fmtNumber(value)})`, quote: `$${fmtNumber(value)}` };
}

export const entityPhrase = (rng: Rng, state: string) => {
  const an = /^[AEIOU]/.test(state) ? 'an' : 'a';
  return rng.pick([
    `${an} ${state} corporation`,
    `${an} ${state} limited liability company`,
    `a corporation organized under the laws of the State of ${state}`,
  ]);
};

async function generate(seed: number) {
  const rng = makeRng(hashSeed('contract', seed));
  const st = legalStyle(rng);
  const title = rng.pick(TITLES);
  const provider = companyName(rng, 'US');
  const client = companyName(rng, 'US', [provider]);
  const [provState, clientState, govState] = rng.sample(US_STATE_NAMES, 3);
  const day = randomDay(rng);
  const ds = proseDateStyle(rng, LOCALES.US);
  const dayText = fmtDate(day, ds);
  const provName = rng.pick(['Provider', 'Consultant', 'Contractor', 'Service Provider']);
  const clientName = rng.pick(['Client', 'Customer', 'Company']);
  const fee = rng.chance(0.5) ? amount(rng, 1500, 60000, false) : amount(rng, 1500, 60000);
  const feeText = proseDollars(rng, fee);
  const feeKind = rng.pick(['monthly fee', 'fixed fee', 'annual fee', 'retainer']);
  const payDays = rng.pick([10, 15, 30, 30, 45, 60]);
  const payDur = duration(rng, payDays, 'days');
  const hasTerm = rng.chance(0.8);
  // Own stream: how the term is worded leaves every other draw of the document as it was.
  const termWording = makeRng(hashSeed('contract:term-wording', seed));
  const termN = rng.pick([6, 12, 12, 18, 24, 36]);
  const termDur =
    rng.chance(0.5) && termN % 12 === 0 ? duration(rng, termN / 12, 'years') : duration(rng, termN, 'months');
  const renews = rng.chance(0.5);
  const billing = rng.chance(0.85) ? rng.pick(BILLING) : null;
  const hasNotice = rng.chance(0.6);
  const noticeDays = rng.pick([15, 30, 60, 90]);
  const noticeDur = duration(rng, noticeDays, 'days');
  const hasCap = rng.chance(0.5);
  const cap = amount(rng, 50, 2000, false) * 1000;
  const capText = proseDollars(rng, cap);
  const hasLaw = rng.chance(0.9);
  const signers = [
    { party: provider, name: personName(rng), title: rng.pick(JOB_TITLES) },
    { party: client, name: personName(rng), title: rng.pick(JOB_TITLES) },
  ];
  const provAddr = usAddressIn(rng, provState!);
  const clientAddr = usAddressIn(rng, clientState!);

  const formal = `This ${title} (the "Agreement") is ${rng.pick(['made and entered into', 'entered into', 'dated'])} as of ${dayText} (the "Effective Date") by and between ${provider}, ${entityPhrase(rng, provState!)} with offices at ${provAddr.lines.join(', ')} ("${provName}"), and ${client}, ${entityPhrase(rng, clientState!)} with offices at ${clientAddr.lines.join(', ')} ("${clientName}").`;
  // Many agreements name their parties plainly ("between X and Y."); own stream, so every other
  // draw of the document stays as it was.
  const plain = makeRng(hashSeed('contract-plain-parties', seed)).chance(0.3);
  const preamble: Para[] = [
    {
      text: plain
        ? `This ${title} is effective as of ${dayText} between ${provider} ("${provName}") and ${client} ("${clientName}").`
        : formal,
      keys: ['day', 'provider', 'client'],
    },
    {
      text: `WHEREAS, ${clientName} wishes to obtain certain ${rng.pick(['consulting', 'technical', 'professional', 'maintenance'])} services, and ${provName} is willing to provide such services on the terms set out below; NOW, THEREFORE, the parties agree as follows:`,
    },
  ];
  const billingSentence: Record<string, string> = {
    Monthly: `${provName} shall invoice ${clientName} monthly in arrears for the Services performed in the preceding month.`,
    Quarterly: `${provName} shall invoice ${clientName} quarterly, at the end of each calendar quarter.`,
    Annually: `${provName} shall invoice ${clientName} annually in advance, on each anniversary of the Effective Date.`,
    'Per milestone': `${provName} shall invoice ${clientName} upon completion of each milestone set out in Exhibit B.`,
  };
  // Own stream: the deliverables, set out one per line, leave every other draw as it was.
  const dr = makeRng(hashSeed('contract:deliverables', seed));
  const deliverables = dr.chance(0.6) ? dr.sample(DELIVERABLES, dr.int(2, 5)) : [];
  const marker = dr.pick(['•', '-', 'n.', '(a)']);
  const stop = dr.pick(['.', '', ';']);
  const markOf = (i: number) =>
    marker === 'n.' ? `${i + 1}.` : marker === '(a)' ? `(${String.fromCharCode(97 + i)})` : marker;
  const facts: Clause[] = [
    {
      heading: 'Services',
      paras: [
        {
          text: `${provName} shall perform the services described in Exhibit A (the "Services") in a professional and workmanlike manner, using personnel with appropriate skill and experience.`,
        },
        ...(deliverables.length
          ? [
              {
                text: dr.pick([
                  `As part of the Services, ${provName} shall deliver the following:`,
                  `The deliverables under this Agreement are:`,
                  `${provName} shall provide ${clientName} with:`,
                ]),
              },
              ...deliverables.map((d, i) => ({
                text: `${markOf(i)} ${d}${stop}`,
                keys: [`deliverable:${i}`],
              })),
            ]
          : []),
        {
          text: `${clientName} shall provide ${provName} with timely access to the information, facilities and personnel reasonably required for the performance of the Services.`,
        },
      ],
    },
    {
      heading: 'Fees and Payment',
      paras: [
        {
          text: `In consideration of the Services, ${clientName} shall pay ${provName} a ${feeKind} of ${feeText.text}, exclusive of applicable taxes.`,
          keys: ['fee'],
        },
        {
          text: `${billing ? `${billingSentence[billing]} ` : ''}${clientName} shall pay each undisputed invoice within ${payDur.written} of receipt. Late payments shall bear interest at the lesser of one percent per month or the maximum rate permitted by law.`,
          keys: billing ? ['billing', 'pay'] : ['pay'],
        },
      ],
    },
    {
      heading: termWording.pick(['Term and Renewal', 'Term', 'Duration', 'Term of Agreement']),
      paras: [
        {
          text: hasTerm
            ? termWording.pick([
                `This Agreement shall commence on the Effective Date and shall continue for a period of ${termDur.written} (the "Initial Term"), unless terminated earlier in accordance with its terms.`,
                `This Agreement shall remain in force for ${termDur.written} from the Effective Date (the "Initial Term"), unless terminated earlier in accordance with its terms.`,
                `The initial term of this Agreement (the "Initial Term") is ${termDur.written}, beginning on the Effective Date.`,
                `Unless terminated earlier in accordance with its terms, this Agreement shall terminate ${termDur.written} after the Effective Date (the "Initial Term").`,
              ])
            : 'This Agreement shall commence on the Effective Date and shall continue until terminated by either party in accordance with its terms.',
          keys: hasTerm ? ['term'] : [],
        },
        {
          text: renews
            ? `Upon expiry of the ${hasTerm ? 'Initial Term' : 'first year'}, this Agreement shall automatically renew for successive periods of one (1) year each unless either party gives written notice of non-renewal at least thirty (30) days before the end of the then-current term.`
            : 'This Agreement shall not renew automatically. Any extension shall require a written amendment signed by both parties.',
          keys: ['renew'],
        },
      ],
    },
    {
      heading: 'Termination',
      paras: [
        {
          text: hasNotice
            ? `Either party may terminate this Agreement for convenience upon ${noticeDur.written}' prior written notice to the other party.`
            : 'Either party may terminate this Agreement only if the other party commits a material breach and fails to cure it after receiving written notice.',
          keys: hasNotice ? ['notice'] : [],
        },
        {
          text: `Upon termination, ${clientName} shall pay ${provName} for all Services performed up to the effective date of termination.`,
        },
      ],
    },
    {
      heading: 'Confidentiality',
      paras: [
        {
          text: 'Each party shall hold the confidential information of the other party in confidence, use it only for the purposes of this Agreement and disclose it only to those of its employees and advisers who need to know it.',
        },
      ],
    },
    {
      heading: 'Limitation of Liability',
      paras: [
        {
          text: hasCap
            ? `Except for breaches of confidentiality or indemnification obligations, in no event shall either party's aggregate liability arising out of this Agreement exceed ${capText.text}.`
            : `Except for breaches of confidentiality or indemnification obligations, each party's aggregate liability arising out of this Agreement shall not exceed the fees paid by ${clientName} in the twelve months preceding the claim.`,
          keys: hasCap ? ['cap'] : [],
        },
      ],
    },
  ];
  if (hasLaw) {
    facts.push({
      heading: 'Governing Law',
      paras: [
        {
          text: rng.pick([
            `This Agreement shall be governed by and construed in accordance with the laws of the State of ${govState}, without regard to its conflict of laws principles.`,
            `The validity, interpretation and performance of this Agreement shall be governed by the laws of the State of ${govState}.`,
            `This Agreement and any dispute arising from it shall be governed by and construed in accordance with the internal laws of the State of ${govState}.`,
          ]),
          keys: ['law'],
        },
      ],
    });
  }
  // Boilerplate spread among the fact clauses for 2-6 pages.
  const clauses = [...facts];
  for (const b of boilerplate(rng, rng.int(2, 30), ['Governing Law']))
    clauses.splice(rng.int(2, clauses.length), 0, b);
  const out = writeLegal(rng, st, {
    title,
    preamble,
    clauses,
    signers,
    witness:
      'IN WITNESS WHEREOF, the parties have executed this Agreement by their duly authorized representatives as of the Effective Date.',
    footer: `${title} · ${provider} / ${client} · Confidential`,
    letterhead: rng.chance(0.35) ? { name: provider, lines: provAddr.lines } : undefined,
  });
  const pg = (k: string) => out.pages.get(k);
  const at = (k: string, quote: string): Ev | null => (pg(k) ? ev(pg(k)!, quote) : null);

  const q = new Questions();
  q.text(
    'provider',
    ['Who is the service provider?', 'Name of the provider', 'Which company performs the services?'],
    provider,
    at('provider', provider),
  );
  q.text(
    'client',
    ['Who is the client?', 'Customer party', 'Which company receives the services?'],
    client,
    at('client', client),
  );
  q.date(
    'agreement_day',
    [
      'When was this agreement made?',
      'Date of the agreement',
      'As of which date is the agreement entered into?',
    ],
    isoOf(day),
    at('day', dayText),
  );
  q.number(
    'service_fee',
    [`What ${feeKind} does the client pay?`, 'Fee amount', 'How much is the fee for the services?'],
    fee,
    at('fee', feeText.quote),
  );
  q.items(
    'deliverables',
    ['What are the deliverables?', 'List the deliverables.', 'Which deliverables does the provider owe?'],
    deliverables.map((d, i) => at(`deliverable:${i}`, d)!),
  );
  q.number(
    'payment_days',
    [
      'Within how many days must invoices be paid?',
      'Payment period in days',
      'Invoice payment deadline (days)',
    ],
    payDays,
    at('pay', payDur.written),
  );
  q.text(
    'service_period',
    ['How long is the initial term?', 'Duration of the agreement', 'For what period does the agreement run?'],
    hasTerm ? termDur.written : null,
    at('term', termDur.written),
  );
  q.number(
    'notice_days',
    [
      'How many days of notice are needed to terminate for convenience?',
      'Termination notice period (days)',
      'Notice required to end the agreement early',
    ],
    hasNotice ? noticeDays : null,
    at('notice', noticeDur.written),
  );
  q.number(
    'liability_cap',
    ["What is the cap on each party's liability?", 'Liability cap amount', 'Maximum aggregate liability'],
    hasCap ? cap : null,
    at('cap', capText.quote),
  );
  q.text(
    'governing_state',
    [
      "Which state's law governs this agreement?",
      'Governing law (state)',
      'The agreement is construed under the laws of which state?',
    ],
    govState,
    at('law', govState!),
  );
  // The same fact as a choice among all states: the parties' own states are named too, so only
  // the clause around a mention tells the governing one from the others.
  q.category(
    'governing_state_choice',
    [
      "Which US state's law governs the agreement?",
      'Governing jurisdiction',
      'Which state law applies to the agreement?',
    ],
    US_STATE_NAMES,
    hasLaw ? govState! : null,
    hasLaw ? at('law', govState!) : null,
  );
  q.bool(
    'auto_renews',
    [
      'Does the agreement renew automatically?',
      'Automatic renewal?',
      'Will the agreement roll over without a new signature?',
    ],
    renews,
    at('renew', renews ? 'shall automatically renew' : 'shall not renew automatically'),
  );
  q.category(
    'billing_cycle',
    ['How often does the provider invoice?', 'Billing frequency', 'When are invoices issued?'],
    BILLING,
    billing,
    billing ? at('billing', billingSentence[billing]!.split(' in ')[0]!.split(',')[0]!) : null,
  );
  q.items(
    'contract_parties',
    [
      'Name each party to the contract.',
      'Contracting parties',
      'Between which parties is this agreement made?',
    ],
    [at('provider', provider)!, at('client', client)!],
  );
  q.items(
    'signatories',
    ['Who signed the agreement?', 'Names of the signatories', 'List the people who signed.'],
    out.signerEv,
  );
  q.image(
    'provider_signature',
    ["Where is the provider's signature?", 'Signature for the provider', "Provider's signatory's signature"],
    out.signatures[0],
  );
  q.images(
    'signatures',
    ['All signatures', 'Every signature in the agreement', 'Find the signatures.'],
    out.signatures,
  );
  askTitle(
    q,
    'contract_title',
    ['What is the title of this agreement?', 'Agreement title', 'What is the document called?'],
    title,
  );
  return pdfDoc('contract', seed, `${st.numbering}-${st.heading}`, out.pdf, q);
}

export const contract: Family = { name: 'contract', generate };
