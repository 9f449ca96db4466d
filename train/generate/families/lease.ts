/** Residential and commercial leases: parties, premises, rent, deposit, dates, pets, law. */
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addDays,
  addMonths,
  amount,
  companyName,
  duration,
  fmtDate,
  isoOf,
  LOCALES,
  people,
  personName,
  proseDateStyle,
  randomDay,
  US_STATE_NAMES,
  usAddressIn,
} from '../text.ts';
import type { Family } from '../types.ts';
import { proseDollars } from './contract.ts';
import { askTitle, boilerplate, type Clause, legalStyle, type Para, writeLegal } from './legal.ts';

/** What a tenant may not do, counted out in one sentence of the use clause. */
const RESTRICTIONS = [
  'sublet the Premises or assign this Lease without prior written consent',
  'make structural alterations to the Premises',
  'store hazardous or flammable materials on the Premises',
  'use the Premises for any unlawful purpose',
  'cause a nuisance to neighbouring occupiers',
  'install additional locks without providing a key',
];
/** Entries counted out in one sentence: "(a) …; (b) …" or "(i) …, (ii) …". */
const ROMAN = ['i', 'ii', 'iii', 'iv', 'v', 'vi'];

const PROPERTY_TYPES = ['Apartment', 'Single-family house', 'Office', 'Retail unit', 'Warehouse'];
const DESCRIPTIONS: Record<string, string[]> = {
  Apartment: ['a residential apartment', 'an apartment unit'],
  'Single-family house': ['a single-family house', 'a detached single-family residence'],
  Office: ['office space', 'an office suite'],
  'Retail unit': ['a retail unit', 'a ground-floor retail store'],
  Warehouse: ['a warehouse', 'warehouse and storage space'],
};

async function generate(seed: number) {
  const rng = makeRng(hashSeed('lease', seed));
  const st = legalStyle(rng);
  const type = rng.pick(PROPERTY_TYPES);
  const commercial = ['Office', 'Retail unit', 'Warehouse'].includes(type);
  const state = rng.pick(US_STATE_NAMES);
  const landlord = rng.chance(0.6) ? companyName(rng, 'US') : personName(rng);
  const tenants = commercial ? [companyName(rng, 'US', [landlord])] : people(rng, rng.int(1, 3));
  const premises = usAddressIn(rng, state);
  const unit =
    type === 'Apartment'
      ? `, Apt. ${rng.int(1, 30)}${String.fromCharCode(65 + rng.int(0, 5))}`
      : type === 'Office'
        ? `, Suite ${rng.int(100, 900)}`
        : '';
  const street = `${premises.lines[0]}${unit}`;
  const start = randomDay(rng);
  const fixed = rng.chance(0.75);
  const months = rng.pick([6, 12, 12, 12, 24, 36, 60]);
  const end = addDays(addMonths(start, months), -1);
  const ds = proseDateStyle(rng, LOCALES.US);
  const d = (x: typeof start) => fmtDate(x, ds);
  const rent = commercial ? amount(rng, 1800, 25000, false) : amount(rng, 650, 4500, false);
  const rentText = proseDollars(rng, rent);
  const hasDeposit = rng.chance(0.75);
  const hasLaw = rng.chance(0.8);
  const deposit = rent * rng.pick([1, 1, 1.5, 2]);
  const depositText = proseDollars(rng, deposit);
  const pets = rng.chance(0.5);
  const hasLate = rng.chance(0.6);
  const lateFee = amount(rng, 25, 150, false);
  const lateText = proseDollars(rng, lateFee);
  const dueDay = rng.pick([1, 1, 1, 5]);
  const title = commercial
    ? rng.pick(['Commercial Lease Agreement', 'Lease of Business Premises'])
    : rng.pick(['Residential Lease Agreement', 'Lease Agreement', 'Residential Tenancy Agreement']);
  const lName = rng.pick(['Landlord', 'Lessor']);
  const tName = lName === 'Landlord' ? 'Tenant' : 'Lessee';
  const signDay = addDays(start, -rng.int(3, 40));
  const tenantList =
    tenants.length === 1 ? tenants[0]! : `${tenants.slice(0, -1).join(', ')} and ${tenants.at(-1)}`;
  const preamble: Para[] = [
    {
      text: `This ${title} (the "Lease") is made on ${d(signDay)} between ${landlord} ("${lName}") and ${tenantList} (${tenants.length > 1 ? `together, "${tName}"` : `"${tName}"`}).`,
      keys: ['landlord', 'tenants'],
    },
  ];
  // Drawn apart, so the leases' other values stay as they were.
  const rr = makeRng(hashSeed('lease:restrictions', seed));
  const restrictions = rr.sample(RESTRICTIONS, rr.int(2, 4));
  const roman = rr.chance(0.4);
  const clauses: Clause[] = [
    {
      heading: 'Premises',
      paras: [
        {
          text: `${lName} leases to ${tName} ${rng.pick(DESCRIPTIONS[type]!)} located at ${street}, ${premises.lines[1]} (the "Premises"), together with the fixtures and appliances listed in the inventory.`,
          keys: ['premises', 'type'],
        },
      ],
    },
    {
      heading: 'Term',
      paras: [
        {
          text: fixed
            ? `The term of this Lease begins on ${d(start)} and ends on ${d(end)}, a period of ${duration(rng, months, 'months').written}.`
            : `The tenancy begins on ${d(start)} and continues from month to month until terminated by either party on at least thirty (30) days' written notice.`,
          keys: fixed ? ['start', 'end'] : ['start'],
        },
      ],
    },
    {
      heading: 'Rent',
      paras: [
        {
          text: `${tName} shall pay rent of ${rentText.text} per month, in advance, on the ${dueDay === 1 ? 'first' : 'fifth'} day of each month.`,
          keys: ['rent'],
        },
        {
          text: hasLate
            ? `If rent is not received within five (5) days after its due date, ${tName} shall pay a late charge of ${lateText.text}.`
            : `Rent not received when due shall be subject to such remedies as are available to ${lName} under applicable law.`,
          keys: hasLate ? ['late'] : [],
        },
      ],
    },
    {
      heading: 'Security Deposit',
      paras: [
        {
          text: hasDeposit
            ? `On signing this Lease, ${tName} shall pay a security deposit of ${depositText.text}, to be held by ${lName} as security for the performance of ${tName}'s obligations and returned as required by law.`
            : `No security deposit is required under this Lease.`,
          keys: hasDeposit ? ['deposit'] : [],
        },
      ],
    },
    {
      heading: 'Pets',
      paras: [
        {
          text: pets
            ? `${tName} may keep ${rng.pick(['up to two domestic pets', 'one cat or one dog', 'pets'])} on the Premises with the prior written approval of ${lName}, which shall not be unreasonably withheld.`
            : `No pets of any kind are allowed on the Premises without the prior written consent of ${lName}.`,
          keys: ['pets'],
        },
      ],
    },
    {
      heading: 'Use and Maintenance',
      paras: [
        {
          text: `${tName} shall use the Premises only ${commercial ? 'for lawful business purposes' : 'as a private residence'}, keep them clean and in good condition, and promptly notify ${lName} of any needed repairs.`,
        },
        {
          text: `${tName} shall not ${restrictions.map((r, i) => `(${roman ? ROMAN[i] : String.fromCharCode(97 + i)}) ${r}`).join(roman ? ', ' : '; ')}.`,
          keys: ['restrictions'],
        },
        {
          text: `${lName} shall maintain the structure, roof, plumbing, heating and electrical systems of the Premises in good working order.`,
        },
      ],
    },
  ];
  if (hasLaw) {
    clauses.push({
      heading: 'Governing Law',
      paras: [
        {
          text: `This Lease shall be governed by and construed in accordance with the laws of the State of ${state}.`,
          keys: ['law'],
        },
      ],
    });
  }
  for (const c of boilerplate(rng, rng.int(2, 16), [
    'Governing Law',
    'Non-Solicitation',
    'Publicity',
    'Subcontracting',
  ]))
    clauses.splice(rng.int(3, clauses.length), 0, c);
  const signers = [
    {
      party: lName,
      name: /(Inc\.|LLC|Corp\.|Co\.)$/.test(landlord) ? personName(rng) : landlord,
      title: /(Inc\.|LLC|Corp\.|Co\.)$/.test(landlord) ? `for ${landlord}` : lName,
    },
    ...tenants.map((t) =>
      commercial
        ? { party: tName, name: personName(rng), title: `for ${t}` }
        : { party: tName, name: t, title: tName },
    ),
  ];
  const out = writeLegal(rng, st, {
    title,
    preamble,
    clauses,
    signers,
    witness: `${lName} and ${tName} have signed this Lease on the dates written below.`,
    footer: `${title} · ${street}`,
    // A landlord company's lease on its own letterhead.
    letterhead:
      /(Inc\.|LLC|Corp\.|Co\.)$/.test(landlord) && rng.chance(0.5)
        ? { name: landlord, lines: usAddressIn(rng, state).lines }
        : undefined,
  });
  const at = (k: string, quote: string): Ev | null =>
    out.pages.get(k) ? ev(out.pages.get(k)!, quote) : null;
  const typeQuote = (() => {
    const para = clauses[0]!.paras[0]!.text;
    return DESCRIPTIONS[type]!.find((x) => para.includes(x))!;
  })();

  const q = new Questions();
  q.text(
    'landlord',
    ['Who is the landlord?', 'Lessor', 'Who owns / lets the property?'],
    landlord,
    at('landlord', landlord),
  );
  q.items(
    'tenants',
    ['Who are the tenants?', 'List the tenants.', 'Names of the lessees'],
    tenants.map((t) => at('tenants', t)!),
  );
  q.items(
    'restrictions',
    [
      'What may the tenant not do?',
      'List the restrictions on the tenant.',
      'Prohibited acts under the lease',
    ],
    restrictions.map((r) => at('restrictions', r)!),
  );
  q.text(
    'premises_street',
    ['What is the street address of the premises?', 'Property address (street)', 'Which address is leased?'],
    street,
    at('premises', street),
  );
  q.date(
    'lease_start',
    ['When does the lease start?', 'Commencement date', 'First day of the lease'],
    isoOf(start),
    at('start', d(start)),
  );
  q.date(
    'lease_end',
    ['When does the lease end?', 'End date of the lease', 'Expiry of the lease term'],
    fixed ? isoOf(end) : null,
    at('end', d(end)),
  );
  q.number(
    'monthly_rent',
    ['What is the monthly rent?', 'Rent per month', 'How much rent is due each month?'],
    rent,
    at('rent', rentText.quote),
  );
  q.number(
    'security_deposit',
    ['How large is the security deposit?', 'Deposit amount', 'Security deposit required'],
    hasDeposit ? deposit : null,
    at('deposit', depositText.quote),
  );
  q.number(
    'late_fee',
    ['What is the late fee?', 'Late charge amount', 'Penalty for late rent'],
    hasLate ? lateFee : null,
    at('late', lateText.quote),
  );
  q.category(
    'property_type',
    ['What type of property is leased?', 'Property type', 'Kind of premises'],
    PROPERTY_TYPES,
    type,
    at('type', typeQuote),
  );
  q.bool(
    'pets_allowed',
    ['Are pets allowed?', 'Pets permitted?', 'May the tenant keep animals?'],
    pets,
    at('pets', pets ? `${tName} may keep` : 'No pets of any kind are allowed'),
  );
  q.text(
    'lease_law_state',
    [
      'Which state law governs the lease?',
      'Governing law of the lease',
      'Laws of which state apply to this lease?',
    ],
    state,
    at('law', state),
  );
  q.image(
    'landlord_signature',
    ["Where is the landlord's signature?", `${lName} signature`, 'Signature of the lessor'],
    out.signatures[0],
  );
  q.images(
    'signatures',
    ['All signatures', 'Every signature on the lease', 'Find the signatures of all parties.'],
    out.signatures,
  );
  q.items(
    'signatories',
    ['Who signed the lease?', 'Signed by (names)', 'List everyone who signed.'],
    out.signerEv,
  );
  askTitle(
    q,
    'lease_title',
    ['Title of the lease', 'What is the document titled?', 'Heading of this document'],
    title,
  );
  return pdfDoc(
    'lease',
    seed,
    `${commercial ? 'commercial' : 'residential'}-${st.numbering}-${st.heading}`,
    out.pdf,
    q,
  );
}

export const lease: Family = { name: 'lease', generate };
