/** Non-disclosure agreements, mutual or one-way: purpose, exclusions, secrecy period, law. */
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addDays,
  companyName,
  duration,
  fmtDate,
  isoOf,
  JOB_TITLES,
  LOCALES,
  personName,
  proseDateStyle,
  randomDay,
  US_STATE_NAMES,
  usAddressIn,
} from '../text.ts';
import type { Family } from '../types.ts';
import { entityPhrase } from './contract.ts';
import { askTitle, boilerplate, type Clause, legalStyle, type Para, writeLegal } from './legal.ts';

const PURPOSES: [string, (a: string, b: string) => string][] = [
  ['Evaluating a business relationship', () => 'evaluate a potential business relationship between them'],
  [
    'Potential acquisition',
    (a, b) => `evaluate a possible acquisition of all or part of the business of ${b} by ${a}`,
  ],
  ['Joint product development', () => 'explore the joint development of new products and technologies'],
  ['Investment evaluation', (a, b) => `evaluate a potential investment by ${a} in ${b}`],
  [
    'Supplier qualification',
    (a, b) => `assess whether ${b} can qualify as a supplier of goods or services to ${a}`,
  ],
];
const EXCLUSIONS = [
  'is or becomes generally available to the public other than through a breach of this Agreement',
  'was lawfully known to the Receiving Party before its disclosure under this Agreement',
  'is independently developed by the Receiving Party without use of the Confidential Information',
  'is rightfully received from a third party without a duty of confidentiality',
  'is approved for release by the prior written consent of the Disclosing Party',
];

/** What some agreements count out as confidential, beside what they leave out. */
const INCLUSIONS = [
  'is marked or identified as confidential at the time of disclosure',
  'relates to the products, customers, pricing or finances of the Disclosing Party',
  'is disclosed orally and summarised in writing within thirty days',
  'would reasonably be understood to be confidential given its nature',
  'concerns trade secrets, know-how, source code or inventions',
];

/** What an employee undertakes not to do once employed: heading, and the act. */
const EMPLOYEE_RESTRAINTS: [string, string][] = [
  ['Non-Competition', 'engage in or prepare for any business that competes with the business of the Company'],
  ['Non-Solicitation of Employees', 'solicit, recruit or hire any person who is an employee of the Company'],
  [
    'Non-Solicitation of Customers',
    'solicit any customer of the Company with whom the Employee had material contact',
  ],
];
/** A restraint that runs for a period counted from the end of the employment. */
const EMPLOYMENT_PERIODS: ((d: string, what: string) => string)[] = [
  (d, what) =>
    `During the term of the Employee's employment with the Company and for a period of ${d} following the termination of that employment for any reason, the Employee shall not, directly or indirectly, ${what}.`,
  (d, what) =>
    `For ${d} after the Employee ceases to be employed by the Company, the Employee will not ${what}.`,
  (d, what) =>
    `While employed by the Company and during the ${d} immediately following the cessation of such employment, the Employee shall not ${what}.`,
];

/** Entries counted out in one sentence: "(a) …; (b) …". */
const counted = (items: string[]) => items.map((e, i) => `(${String.fromCharCode(97 + i)}) ${e}`).join('; ');

async function generate(seed: number) {
  const rng = makeRng(hashSeed('nda', seed));
  // Drawn apart from the rest, so the documents generated before keep their other facts.
  const definitionRng = makeRng(hashSeed('nda:definition', seed));
  const inclusions = definitionRng.chance(0.4)
    ? definitionRng.sample(INCLUSIONS, definitionRng.int(2, 4))
    : null;
  const st = legalStyle(rng);
  // Many confidentiality agreements bind an employee: their restraints run for periods after the
  // employment ends, and the agreement itself seldom states a term. Own stream, so every other
  // document stays as it was.
  const er = makeRng(hashSeed('nda:employee', seed));
  const employee = er.chance(0.25);
  const mutual = rng.chance(0.5) && !employee;
  const a = companyName(rng, 'US');
  const drawnB = rng.chance(0.2) ? personName(rng) : companyName(rng, 'US', [a]);
  const b = employee ? personName(er) : drawnB;
  const individual = !/(Inc\.|LLC|Corp\.|Co\.)$/.test(b);
  const [stateA, stateB, govState] = rng.sample(US_STATE_NAMES, 3);
  const day = randomDay(rng);
  const dayText = fmtDate(day, proseDateStyle(rng, LOCALES.US));
  const [purposeCat, purposeFn] = rng.pick(PURPOSES);
  const hasPeriod = rng.chance(0.8);
  const years = rng.pick([1, 2, 3, 3, 5, 7]);
  const period = duration(rng, years, 'years');
  const hasReturn = rng.chance(0.55);
  const returnDays = rng.pick([5, 10, 14, 15, 30]);
  const returnDur = duration(rng, returnDays, 'days');
  const hasLaw = rng.chance(0.85);
  const exclusions = rng.sample(EXCLUSIONS, rng.int(3, 5));
  const drawnLabels = [
    mutual ? rng.pick(['Party A', 'the Company']) : 'Discloser',
    mutual ? rng.pick(['Party B', 'the Counterparty']) : 'Recipient',
  ];
  const [labelA, labelB] = employee ? ['the Company', 'Employee'] : drawnLabels;
  const title = mutual
    ? rng.pick(['Mutual Non-Disclosure Agreement', 'Mutual Confidentiality Agreement'])
    : rng.pick([
        'Non-Disclosure Agreement',
        'Confidentiality Agreement',
        'Unilateral Non-Disclosure Agreement',
      ]);
  const bAddr = usAddressIn(rng, stateB!);
  // Own stream. Agreements often define their date ("as of … (the "Effective Date")") and refer to
  // an earlier agreement of the same parties by its date: a date written alike that is not theirs.
  const dr = makeRng(hashSeed('nda:dates', seed));
  const definedDay = dr.chance(0.5) ? ' (the "Effective Date")' : '';
  const earlierKind = dr.pick(['Master Services', 'License', 'Supply', 'Collaboration']);
  const earlier = dr.chance(0.35)
    ? `${a} and ${b} are parties to a ${earlierKind} Agreement dated as of ${fmtDate(addDays(day, -dr.int(30, 900)), proseDateStyle(dr, LOCALES.US))} (the "${earlierKind} Agreement"), and wish to exchange information in connection with it.`
    : null;
  const formal = `This ${title} (this "Agreement") is entered into as of ${dayText}${definedDay} by and between ${a}, ${entityPhrase(rng, stateA!)} ("${labelA}"), and ${b}, ${individual ? `an individual residing at ${bAddr.lines.join(', ')}` : entityPhrase(rng, stateB!)} ("${labelB}").`;
  // Many agreements name their parties plainly ("between X and Y."); own stream, so every other
  // draw of the document stays as it was.
  const plain = makeRng(hashSeed('nda-plain-parties', seed)).chance(0.3);
  // Many NDAs are letters: dated, addressed to the other party's officer, signed by the sender
  // and countersigned under "Accepted and agreed"; the addressee's company is named only in the
  // address block and the countersignature. Own stream, like the one above.
  const lr = makeRng(hashSeed('nda:letter-form', seed));
  const asLetter = lr.chance(0.3);
  const contact = personName(lr, [b]);
  const contactTitle = lr.pick(JOB_TITLES);
  const letterForm = asLetter
    ? {
        date: { text: dayText, keys: ['day'] },
        addressee: [
          ...(individual ? [] : [{ text: contact }, { text: contactTitle }]),
          { text: b, keys: ['b'] },
          ...bAddr.lines.map((text) => ({ text })),
        ],
        greeting: `Dear ${individual ? b : contact}:`,
        closing: lr.pick(['Very truly yours,', 'Sincerely,', 'Yours faithfully,']),
        accepted: lr.pick(['ACCEPTED AND AGREED:', 'Agreed and accepted:', 'Acknowledged and agreed:']),
      }
    : undefined;
  const preamble: Para[] = [
    asLetter
      ? {
          text: `In connection with your interest in a possible transaction, ${a} (the "Company") is prepared to make available to you certain information that it considers confidential. In consideration of our furnishing you with that information, you agree to the terms of this letter agreement (this "Agreement").`,
          keys: ['a'],
        }
      : {
          text: plain ? `This ${title} is effective as of ${dayText} between ${a} and ${b}.` : formal,
          keys: ['day', 'a', 'b'],
        },
    ...(earlier ? [{ text: earlier }] : []),
  ];
  const mutualText = mutual
    ? 'This Agreement is mutual: each party may disclose Confidential Information to the other, and each party shall act as a Receiving Party for information it receives.'
    : `This Agreement is one-way: only ${a} will disclose Confidential Information under it, and ${b} shall act as the Receiving Party.`;
  // Own stream, so every other draw of the document stays as it was. Many agreements run for a
  // term of their own and restrain the parties for other periods (no soliciting, no competing):
  // durations that answer no question about the term, and a term that is often not stated.
  const more = makeRng(hashSeed('nda:durations', seed));
  const hasTerm = more.chance(0.45) && (!employee || er.chance(0.3));
  const termMonths = more.pick([6, 12, 18, 24, 36, 60]);
  const termDur =
    termMonths % 12 === 0 && more.chance(0.6)
      ? duration(more, termMonths / 12, 'years')
      : duration(more, termMonths, 'months');
  const restraint = more.chance(0.55)
    ? {
        months: more.pick([6, 12, 18, 24]),
        what: more.pick([
          'solicit for employment any employee of the other party with whom it had contact in connection with the Purpose',
          'engage in any business that competes with the business of the Disclosing Party in the territory in which it operates',
          'induce any customer or supplier of the other party to end or reduce its relationship with that party',
        ]),
      }
    : null;
  const restraintDur = restraint ? duration(more, restraint.months, 'months') : null;
  const employeeClauses: Clause[] = employee
    ? er.sample(EMPLOYEE_RESTRAINTS, er.int(1, 2)).map(([heading, what]) => {
        const months = er.pick([6, 12, 18, 24]);
        const d =
          months % 12 === 0 && er.chance(0.5)
            ? duration(er, months / 12, 'years')
            : duration(er, months, 'months');
        return { heading, paras: [{ text: er.pick(EMPLOYMENT_PERIODS)(d.written, what) }] };
      })
    : [];
  if (employee)
    employeeClauses.push({
      heading: 'No Right to Employment',
      paras: [
        {
          text: "Nothing in this Agreement gives the Employee a right to continued employment; the Employee's employment is at will and may be ended by either party at any time.",
        },
      ],
    });
  const clauses: Clause[] = [
    {
      heading: 'Purpose',
      paras: [
        {
          text: `The parties wish to ${purposeFn(a, b)} (the "Purpose"). ${mutualText}`,
          keys: ['purpose', 'mutual'],
        },
      ],
    },
    {
      heading: 'Confidential Information',
      paras: [
        {
          text: inclusions
            ? `"Confidential Information" includes all non-public information disclosed by or on behalf of the Disclosing Party that ${counted(inclusions)}.`
            : '"Confidential Information" means all non-public business, technical and financial information disclosed by or on behalf of the Disclosing Party, whether orally, in writing or in any other form, that is marked as confidential or would reasonably be understood to be confidential.',
        },
        {
          text: `Confidential Information does not include information that ${counted(exclusions)}.`,
          keys: ['exclusions'],
        },
      ],
    },
    {
      heading: 'Obligations',
      paras: [
        {
          text: 'The Receiving Party shall use the Confidential Information solely for the Purpose, protect it with at least the same degree of care it uses for its own confidential information and in no event less than reasonable care, and disclose it only to its employees and professional advisers who need to know it for the Purpose.',
        },
      ],
    },
    {
      // How long the secrecy lasts is no term of the agreement: its heading says which it is.
      heading: more.pick(['Confidentiality Period', 'Duration of Confidentiality', 'Period of Secrecy']),
      paras: [
        {
          text: hasPeriod
            ? `The obligations of confidentiality under this Agreement shall remain in effect for ${period.written} from the date of this Agreement.`
            : 'The obligations of confidentiality under this Agreement shall continue until the Confidential Information no longer qualifies as confidential under this Agreement.',
          keys: hasPeriod ? ['period'] : [],
        },
      ],
    },
    ...(hasTerm
      ? [
          {
            // Real agreements also put the term under a bare "Term" or among general provisions.
            heading: more.pick([
              'Duration of Agreement',
              'Term of Agreement',
              'Effective Period',
              'Term',
              'General',
            ]),
            paras: [
              {
                text: more.pick([
                  `This Agreement commences on the date first written above and continues for a term of ${termDur.written}, unless terminated earlier by either party on written notice to the other.`,
                  `This Agreement shall remain in effect for a period of ${termDur.written} from the date first written above.`,
                  `The term of this Agreement is ${termDur.written} from the date hereof.`,
                  `Unless terminated earlier in accordance with its terms, this Agreement expires ${termDur.written} after the date first written above.`,
                  `This Agreement shall terminate ${termDur.written} after the date hereof.`,
                  `This Agreement shall automatically expire ${termDur.written} after the Effective Date, unless the parties extend it in writing.`,
                ]),
                keys: ['term'],
              },
            ],
          },
        ]
      : []),
    ...employeeClauses,
    ...(restraint && restraintDur && !employee
      ? [
          {
            heading: more.pick(['Non-Solicitation', 'Restrictive Covenants', 'Restrictions']),
            paras: [
              {
                text: `During the discussions and for a period of ${restraintDur.written} following their termination, neither party shall, directly or indirectly, ${restraint.what}.`,
              },
            ],
          },
        ]
      : []),
    {
      heading: 'Return of Materials',
      paras: [
        {
          text: hasReturn
            ? `Within ${returnDur.written} after a written request by the Disclosing Party, the Receiving Party shall return or destroy all Confidential Information in its possession and certify the destruction in writing.`
            : 'Upon written request by the Disclosing Party, the Receiving Party shall promptly return or destroy all Confidential Information in its possession.',
          keys: hasReturn ? ['return'] : [],
        },
      ],
    },
  ];
  if (hasLaw) {
    clauses.push({
      heading: 'Governing Law',
      paras: [
        {
          text: rng.pick([
            `This Agreement shall be governed by and construed in accordance with the laws of the State of ${govState}, excluding its rules on conflicts of law.`,
            `The laws of the State of ${govState} govern this Agreement and all claims arising out of or relating to it.`,
          ]),
          keys: ['law'],
        },
      ],
    });
  }
  for (const c of boilerplate(rng, rng.int(2, 24), ['Governing Law']))
    clauses.splice(rng.int(3, clauses.length), 0, c);
  const signers = [
    { party: a, name: personName(rng), title: rng.pick(JOB_TITLES) },
    individual
      ? { party: b, name: b, title: 'Individual' }
      : { party: b, name: personName(rng), title: rng.pick(JOB_TITLES) },
  ];
  const out = writeLegal(rng, st, {
    title,
    preamble,
    clauses,
    signers,
    witness:
      'IN WITNESS WHEREOF, the parties have caused this Agreement to be executed as of the date first written above.',
    footer: `${title} · Confidential`,
    letterhead: rng.chance(0.35) ? { name: a, lines: usAddressIn(rng, stateA!).lines } : undefined,
    letterForm,
  });
  const at = (k: string, quote: string): Ev | null =>
    out.pages.get(k) ? ev(out.pages.get(k)!, quote) : null;

  const q = new Questions();
  q.items(
    'nda_parties',
    ['Who are the parties to this NDA?', 'List the parties.', 'Which parties entered into the agreement?'],
    [at('a', a)!, at('b', b)!],
  );
  if (!mutual)
    q.text(
      'receiving_party',
      [
        'Who receives the confidential information?',
        'Recipient',
        'Which party is bound to keep the information secret?',
      ],
      b,
      at('b', b),
    );
  q.date(
    'nda_day',
    ['When was the NDA signed?', 'Date of the agreement', 'As of what date is it entered into?'],
    isoOf(day),
    at('day', dayText),
  );
  q.text(
    'secrecy_period',
    [
      'How long do the confidentiality obligations last?',
      'Confidentiality period',
      'Duration of the secrecy obligations',
    ],
    hasPeriod ? period.written : null,
    at('period', period.written),
  );
  q.number(
    'secrecy_years',
    [
      'For how many years must the information be kept confidential?',
      'Confidentiality period in years',
      'Years of confidentiality',
    ],
    hasPeriod ? years : null,
    at('period', period.written),
  );
  q.stated(
    'secrecy_period_stated',
    [
      'Does the NDA state how long confidentiality lasts?',
      'Is a confidentiality period specified?',
      'Is there a fixed duration for the secrecy obligations?',
    ],
    hasPeriod ? period.written : null,
    at('period', period.written),
  );
  q.text(
    'agreement_term',
    [
      'What is the term of this agreement?',
      'Agreement term',
      'How long does the agreement itself remain in force (leave empty if no term is stated)?',
    ],
    hasTerm ? termDur.written : null,
    at('term', termDur.written),
  );
  q.number(
    'agreement_term_months',
    [
      'How many months does the term of the agreement last?',
      'Term in months',
      'Length of the agreement term, in months',
    ],
    hasTerm ? termMonths : null,
    at('term', termDur.written),
  );
  q.stated(
    'agreement_term_stated',
    [
      'Does the agreement run for a fixed term?',
      'Is a term of the agreement stated?',
      'Fixed duration of the agreement?',
    ],
    hasTerm ? termDur.written : null,
    at('term', termDur.written),
  );
  q.number(
    'return_days',
    [
      'Within how many days must materials be returned on request?',
      'Return period (days)',
      'Deadline to return or destroy information',
    ],
    hasReturn ? returnDays : null,
    at('return', returnDur.written),
  );
  q.text(
    'governing_state',
    [
      'Which state law governs the NDA?',
      'Governing law state',
      'Under the laws of which state is this NDA construed?',
    ],
    govState,
    hasLaw ? at('law', govState!) : null,
  );
  q.category(
    'governing_state_choice',
    [
      'Which US state governs this NDA?',
      'Jurisdiction whose law applies',
      'The NDA is subject to the law of which state?',
    ],
    US_STATE_NAMES,
    hasLaw ? govState! : null,
    hasLaw ? at('law', govState!) : null,
  );
  q.bool(
    'is_mutual',
    [
      'Is this a mutual NDA?',
      'Mutual or one-way? (true if mutual)',
      'Do both parties disclose confidential information?',
    ],
    mutual,
    at(
      'mutual',
      mutual
        ? 'each party may disclose Confidential Information to the other'
        : `only ${a} will disclose Confidential Information`,
    ),
  );
  q.category(
    'nda_purpose',
    ['What is the purpose of the disclosure?', 'Purpose', 'Why are the parties sharing information?'],
    PURPOSES.map(([c]) => c),
    purposeCat,
    at('purpose', purposeFn(a, b)),
  );
  q.items(
    'exclusions',
    [
      'What information is excluded from Confidential Information?',
      'List the exclusions.',
      'Exceptions to confidentiality',
    ],
    exclusions.map((e) => at('exclusions', e)!),
  );
  q.image(
    'first_signature',
    ['Where is the first signature?', `Signature for ${a}`, `Signature of ${signers[0]!.name}`],
    out.signatures[0],
  );
  q.images(
    'signatures',
    ['All signatures', 'Every signature on the NDA', 'Find the signatures.'],
    out.signatures,
  );
  q.items(
    'signatories',
    ['Who signed the NDA?', 'Signatories', 'Names of the people who signed'],
    out.signerEv,
  );
  askTitle(
    q,
    'nda_title',
    ['What is this agreement called?', 'Document title', 'Title of the agreement'],
    title,
  );
  return pdfDoc('nda', seed, `${mutual ? 'mutual' : 'one-way'}-${st.numbering}-${st.heading}`, out.pdf, q);
}

export const nda: Family = { name: 'nda', generate };
