/**
 * Made-up names, places and values for generated documents, and the many ways documents
 * write dates, money, identifiers and durations. Nothing here names a real company.
 */
import type { Rng } from './rng.ts';

// ---------- locales ----------

export type Country = 'US' | 'UK' | 'DE' | 'FR' | 'NL' | 'AU' | 'CA' | 'IE' | 'ES';
export type CurrencyCode = 'USD' | 'GBP' | 'EUR' | 'AUD' | 'CAD';
export const CURRENCY_CODES: CurrencyCode[] = ['USD', 'EUR', 'GBP', 'AUD', 'CAD'];

export type DateStyle =
  | 'long'
  | 'abbr'
  | 'dayLong'
  | 'dayShort'
  | 'mdy'
  | 'dmy'
  | 'iso'
  | 'dotted'
  | 'dmyDash'
  | 'ordinal'
  | 'ordinalWord';

export type MoneyStyle = 'symbol' | 'code' | 'suffix' | 'codeSpace' | 'plain';

export interface Locale {
  country: Country;
  currency: CurrencyCode;
  /** Date styles this country writes; numeric ones all share one day/month order. */
  dateStyles: DateStyle[];
  moneyStyles: MoneyStyle[];
  /** Thousands and decimal separators. */
  separators: [string, string];
  suffixes: string[];
}

export const LOCALES: Record<Country, Locale> = {
  US: {
    country: 'US',
    currency: 'USD',
    dateStyles: ['long', 'abbr', 'mdy', 'iso'],
    moneyStyles: ['symbol', 'code', 'symbol'],
    separators: [',', '.'],
    suffixes: ['Inc.', 'LLC', 'Corp.', 'Co.'],
  },
  CA: {
    country: 'CA',
    currency: 'CAD',
    dateStyles: ['long', 'iso', 'abbr'],
    moneyStyles: ['symbol', 'code'],
    separators: [',', '.'],
    suffixes: ['Inc.', 'Ltd.'],
  },
  UK: {
    country: 'UK',
    currency: 'GBP',
    dateStyles: ['dayLong', 'dayShort', 'dmy'],
    moneyStyles: ['symbol', 'code'],
    separators: [',', '.'],
    suffixes: ['Ltd.', 'plc', 'LLP'],
  },
  IE: {
    country: 'IE',
    currency: 'EUR',
    dateStyles: ['dayLong', 'dmy', 'dayShort'],
    moneyStyles: ['symbol', 'code'],
    separators: [',', '.'],
    suffixes: ['Ltd.', 'DAC'],
  },
  AU: {
    country: 'AU',
    currency: 'AUD',
    dateStyles: ['dayLong', 'dmy', 'dayShort'],
    moneyStyles: ['symbol', 'code'],
    separators: [',', '.'],
    suffixes: ['Pty Ltd'],
  },
  DE: {
    country: 'DE',
    currency: 'EUR',
    dateStyles: ['dotted', 'iso', 'dayLong'],
    moneyStyles: ['suffix', 'code'],
    separators: ['.', ','],
    suffixes: ['GmbH', 'AG'],
  },
  FR: {
    country: 'FR',
    currency: 'EUR',
    dateStyles: ['dmy', 'dayLong'],
    moneyStyles: ['suffix', 'codeSpace'],
    separators: [' ', ','],
    suffixes: ['S.A.', 'SARL', 'S.A.S.'],
  },
  NL: {
    country: 'NL',
    currency: 'EUR',
    dateStyles: ['dmyDash', 'iso', 'dayLong'],
    moneyStyles: ['symbol', 'code'],
    separators: ['.', ','],
    suffixes: ['B.V.', 'N.V.'],
  },
  ES: {
    country: 'ES',
    currency: 'EUR',
    dateStyles: ['dmy', 'dayShort'],
    moneyStyles: ['suffix', 'codeSpace'],
    separators: ['.', ','],
    suffixes: ['S.A.', 'S.L.'],
  },
};

export const COUNTRY_NAMES: Record<Country, string> = {
  US: 'United States',
  CA: 'Canada',
  UK: 'United Kingdom',
  IE: 'Ireland',
  AU: 'Australia',
  DE: 'Germany',
  FR: 'France',
  NL: 'Netherlands',
  ES: 'Spain',
};

export function pickCountry(rng: Rng, weights: Partial<Record<Country, number>> = {}): Country {
  const base: Record<Country, number> = { US: 5, UK: 2, DE: 1, FR: 1, NL: 1, AU: 1, CA: 1, IE: 1, ES: 1 };
  const all = { ...base, ...weights };
  const entries = Object.entries(all) as [Country, number][];
  let r = rng.next() * entries.reduce((a, [, w]) => a + w, 0);
  for (const [c, w] of entries) {
    r -= w;
    if (r < 0) return c;
  }
  return 'US';
}

// ---------- names ----------

const STEMS = [
  'Alderbrook',
  'Brightwater',
  'Cobalt Ridge',
  'Dunmore',
  'Evenfield',
  'Foxglove',
  'Granite Harbor',
  'Halvorsen',
  'Ironleaf',
  'Juniper Vale',
  'Kestrel Point',
  'Lumenward',
  'Marrowstone',
  'Northgate',
  'Oakhaven',
  'Pemberly',
  'Quillfeather',
  'Redfern',
  'Silverbirch',
  'Thistledown',
  'Umberfield',
  'Valemont',
  'Westerly',
  'Yarrowdale',
  'Zephyr Lane',
  'Ashcombe',
  'Bellhaven',
  'Corrin',
  'Drayton Mills',
  'Elmstead',
  'Fairlight',
  'Glenmore',
  'Hollis & Crane',
  'Inverleigh',
  'Kingsbury',
  'Larkspur',
  'Meridian Bay',
  'Norcastle',
  'Orchard Row',
  'Pinecrest',
  'Ravensworth',
  'Stonebridge',
  'Tamarind',
  'Wexford Hill',
  'Brückner',
  'Falkenberg',
  'Lindenhof',
  'Rheinwerk',
  'Beaulieu',
  'Montclair',
  'Vermeil',
  'Van Dijk',
  'Hofstede',
  'Calloway',
  'Desmond & Pryce',
  'Eastwick',
  'Harrowgate',
  'Bluefen',
  'Copperline',
  'Saltmarsh',
  'Wrenfield',
  'Greyhaven',
  'Mistral',
  'Sundale',
  'Tidewell',
  'Highmoor',
];
const INDUSTRIES = [
  'Systems',
  'Analytics',
  'Logistics',
  'Foods',
  'Engineering',
  'Consulting',
  'Supplies',
  'Technologies',
  'Industries',
  'Partners',
  'Healthcare',
  'Manufacturing',
  'Media',
  'Energy',
  'Builders',
  'Textiles',
  'Software',
  'Pharma',
  'Marine',
  'Holdings',
  'Services',
  'Robotics',
  'Hospitality',
  'Print & Design',
  'Office Solutions',
  'Facilities',
  'Labs',
  'Trading',
  'Outfitters',
  'Electrical',
];

/** A company name with a legal suffix fitting the country; distinct from `avoid`. */
export function companyName(rng: Rng, country: Country, avoid: string[] = []): string {
  for (;;) {
    const stem = rng.pick(STEMS);
    const name = `${stem} ${rng.pick(INDUSTRIES)} ${rng.pick(LOCALES[country].suffixes)}`;
    if (!avoid.some((a) => a.startsWith(stem))) return name;
  }
}

const AGENCY_TOPICS = [
  'Building Safety',
  'Motor Vehicles',
  'Revenue',
  'Public Works',
  'Health Services',
  'Environmental Quality',
  'Labor and Industry',
  'Transportation',
  'Consumer Affairs',
  'Housing and Community Development',
];
const INSTITUTIONS = [
  'Medical Center',
  'Community College',
  'Public Library',
  'School District',
  'Water Authority',
  'Housing Authority',
  'Chamber of Commerce',
  'Historical Society',
  'Family Clinic',
  'Credit Union',
];
const BOARDS = ['Nursing', 'Pharmacy', 'Accountancy', 'Licensed Contractors', 'Cosmetology'];

/**
 * The name of whoever issues a letter, a bill or a report: mostly a company with its legal
 * form, but also a trade name without one ("Brightwater Logistics"), a government office
 * ("Department of Revenue", "Saltmarsh County Assessor") or an institution ("Highmoor Medical
 * Center"), as real letterheads have them. English-speaking countries only for the public bodies.
 */
export function organisationName(rng: Rng, country: Country, avoid: string[] = []): string {
  const roll = rng.next();
  const english =
    country === 'US' || country === 'UK' || country === 'IE' || country === 'AU' || country === 'CA';
  for (;;) {
    const place = rng.pick(STEMS);
    let name: string;
    if (roll < 0.7 || (!english && roll >= 0.82)) name = companyName(rng, country, avoid);
    else if (roll < 0.82) name = `${place} ${rng.pick(INDUSTRIES)}`;
    else if (roll < 0.88) name = `Department of ${rng.pick(AGENCY_TOPICS)}`;
    else if (roll < 0.92)
      name = `${place} ${country === 'US' ? 'County' : 'District'} ${rng.pick(['Assessor', 'Clerk', 'Tax Collector', 'Health Department', 'Planning Office'])}`;
    else if (roll < 0.96) name = `${place} ${rng.pick(INSTITUTIONS)}`;
    else name = rng.chance(0.5) ? `State Board of ${rng.pick(BOARDS)}` : `City of ${place}`;
    if (!avoid.some((a) => a === name || (name.includes(place) && a.startsWith(place)))) return name;
  }
}

/** "Alderbrook Systems Inc." → "AS". */
export function initialsOf(name: string): string {
  return name
    .replace(/&/g, ' ')
    .split(/\s+/)
    .filter(
      (w) => /^[A-Z]/.test(w) && !/^(Inc|LLC|Ltd|Corp|Co|GmbH|AG|plc|LLP|Pty|DAC|SARL|S\.|B\.|N\.)/.test(w),
    )
    .slice(0, 3)
    .map((w) => w[0])
    .join('');
}

const FIRST = [
  'Marguerite',
  'Tobias',
  'Priya',
  'Declan',
  'Ingrid',
  'Mateo',
  'Aiko',
  'Cormac',
  'Fenella',
  'Oluwaseun',
  'Rosalind',
  'Henrik',
  'Yevgenia',
  'Bartholomew',
  'Saoirse',
  'Leopold',
  'Amara',
  'Joaquín',
  'Lena',
  'Dmitri',
  'Nadia',
  'Carlos',
  'Hannah',
  'Kwame',
  'Elodie',
  'Rafael',
  'Siobhan',
  'Tariq',
  'Wilhelmina',
  'Jasper',
  'Mei',
  'Oskar',
  'Beatriz',
  'Gideon',
  'Ishaan',
  'Clementine',
  'Rupert',
  'Zainab',
  'Florian',
  'Harriet',
  'Niamh',
  'Emeka',
  'Sofia',
  'Anders',
  'Keiko',
  'Bruno',
  'Delphine',
  'Vikram',
  'Greta',
  'Malik',
];
const LAST = [
  'Okafor',
  'Lindqvist',
  'Raghunathan',
  'Abernathy',
  'Solberg',
  'Villanueva',
  'Takahara',
  'Delaney',
  'Marchbanks',
  'Adeyemi',
  'Featherstone',
  'Vasquez',
  'Korolenko',
  'Quince',
  'Whitlock',
  'Arkwright',
  'Moreau',
  'Schäfer',
  'Brennan',
  'Castellanos',
  'Nakamura',
  'Eriksen',
  'Oyelaran',
  'Fitzgerald',
  'Hartmann',
  'Pellegrini',
  'Kowalczyk',
  'Mbeki',
  'Thornbury',
  'Dubois',
  'Van der Berg',
  'Achterberg',
  'Gallagher',
  'Sandoval',
  'Lindgren',
  'Haddad',
  'Osei',
  'Ramírez',
  'Whitcombe',
  'Petrakis',
  'Jansen',
  'McAllister',
  'Novak',
  'Henderson',
  'Iwasaki',
  'Bergström',
  'Oduya',
  'Carraway',
  'Leclerc',
  'Sørensen',
];

export function personName(rng: Rng, avoid: string[] = []): string {
  for (;;) {
    const name = `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
    if (!avoid.includes(name)) return name;
  }
}

export function people(rng: Rng, n: number): string[] {
  const out: string[] = [];
  while (out.length < n) out.push(personName(rng, out));
  return out;
}

export const JOB_TITLES = [
  'Chief Executive Officer',
  'Managing Director',
  'Chief Financial Officer',
  'Operations Manager',
  'Head of Procurement',
  'General Counsel',
  'Director of Finance',
  'Office Manager',
  'Vice President, Sales',
  'Company Secretary',
  'Property Manager',
  'HR Director',
  'Accounts Payable Lead',
  'Chief Operating Officer',
];

// ---------- places ----------

export const US_STATES: [string, string][] = [
  ['Alabama', 'AL'],
  ['Alaska', 'AK'],
  ['Arizona', 'AZ'],
  ['Arkansas', 'AR'],
  ['California', 'CA'],
  ['Colorado', 'CO'],
  ['Connecticut', 'CT'],
  ['Delaware', 'DE'],
  ['Florida', 'FL'],
  ['Georgia', 'GA'],
  ['Hawaii', 'HI'],
  ['Idaho', 'ID'],
  ['Illinois', 'IL'],
  ['Indiana', 'IN'],
  ['Iowa', 'IA'],
  ['Kansas', 'KS'],
  ['Kentucky', 'KY'],
  ['Louisiana', 'LA'],
  ['Maine', 'ME'],
  ['Maryland', 'MD'],
  ['Massachusetts', 'MA'],
  ['Michigan', 'MI'],
  ['Minnesota', 'MN'],
  ['Mississippi', 'MS'],
  ['Missouri', 'MO'],
  ['Montana', 'MT'],
  ['Nebraska', 'NE'],
  ['Nevada', 'NV'],
  ['New Hampshire', 'NH'],
  ['New Jersey', 'NJ'],
  ['New Mexico', 'NM'],
  ['New York', 'NY'],
  ['North Carolina', 'NC'],
  ['North Dakota', 'ND'],
  ['Ohio', 'OH'],
  ['Oklahoma', 'OK'],
  ['Oregon', 'OR'],
  ['Pennsylvania', 'PA'],
  ['Rhode Island', 'RI'],
  ['South Carolina', 'SC'],
  ['South Dakota', 'SD'],
  ['Tennessee', 'TN'],
  ['Texas', 'TX'],
  ['Utah', 'UT'],
  ['Vermont', 'VT'],
  ['Virginia', 'VA'],
  ['Washington', 'WA'],
  ['West Virginia', 'WV'],
  ['Wisconsin', 'WI'],
  ['Wyoming', 'WY'],
];
export const US_STATE_NAMES = US_STATES.map(([n]) => n);

const US_CITIES: [string, string][] = [
  ['Springfield', 'IL'],
  ['Columbus', 'OH'],
  ['Portland', 'OR'],
  ['Austin', 'TX'],
  ['Madison', 'WI'],
  ['Raleigh', 'NC'],
  ['Boise', 'ID'],
  ['Tucson', 'AZ'],
  ['Albany', 'NY'],
  ['Savannah', 'GA'],
  ['Burlington', 'VT'],
  ['Fresno', 'CA'],
  ['Omaha', 'NE'],
  ['Richmond', 'VA'],
  ['Denver', 'CO'],
  ['Hartford', 'CT'],
  ['Trenton', 'NJ'],
  ['Wilmington', 'DE'],
  ['Spokane', 'WA'],
  ['Tulsa', 'OK'],
  ['Louisville', 'KY'],
  ['Des Moines', 'IA'],
  ['Providence', 'RI'],
  ['Knoxville', 'TN'],
  ['Reno', 'NV'],
];
const STREET_NAMES = [
  'Maple',
  'Oak',
  'Cedar',
  'Elm',
  'Harbor',
  'Lakeview',
  'Ridge',
  'Mill',
  'Church',
  'Station',
  'Park',
  'Willow',
  'Highland',
  'Bridge',
  'Market',
  'Orchard',
  'Union',
  'Chestnut',
  'Spring',
  'Meadow',
];
const US_STREET_TYPES = ['Street', 'Avenue', 'Boulevard', 'Road', 'Drive', 'Lane', 'Parkway'];
const UK_CITIES: [string, string][] = [
  ['Leeds', 'LS'],
  ['Manchester', 'M'],
  ['Bristol', 'BS'],
  ['Norwich', 'NR'],
  ['York', 'YO'],
  ['Cardiff', 'CF'],
  ['Glasgow', 'G'],
  ['Brighton', 'BN'],
  ['Oxford', 'OX'],
  ['Nottingham', 'NG'],
];
const DE_CITIES = [
  'Berlin',
  'Hamburg',
  'München',
  'Köln',
  'Leipzig',
  'Stuttgart',
  'Dresden',
  'Bremen',
  'Hannover',
];
const DE_STREETS = ['Haupt', 'Linden', 'Garten', 'Berg', 'Schiller', 'Goethe', 'Bahnhof', 'Kirch', 'Wald'];
const FR_CITIES = ['Paris', 'Lyon', 'Marseille', 'Toulouse', 'Nantes', 'Bordeaux', 'Lille', 'Rennes'];
const FR_STREETS = [
  'de la Paix',
  'Victor Hugo',
  'des Lilas',
  'du Moulin',
  'Saint-Honoré',
  'de la République',
];
const NL_CITIES = ['Amsterdam', 'Utrecht', 'Rotterdam', 'Eindhoven', 'Groningen', 'Leiden', 'Haarlem'];
const NL_STREETS = ['Keizers', 'Heren', 'Prinsen', 'Molen', 'Linden', 'Kerk', 'Haven'];
const AU_CITIES: [string, string, number][] = [
  ['Sydney', 'NSW', 2000],
  ['Melbourne', 'VIC', 3000],
  ['Brisbane', 'QLD', 4000],
  ['Perth', 'WA', 6000],
  ['Adelaide', 'SA', 5000],
  ['Hobart', 'TAS', 7000],
];
const CA_CITIES: [string, string][] = [
  ['Toronto', 'ON'],
  ['Ottawa', 'ON'],
  ['Vancouver', 'BC'],
  ['Calgary', 'AB'],
  ['Halifax', 'NS'],
  ['Winnipeg', 'MB'],
];
const IE_CITIES = ['Dublin', 'Cork', 'Galway', 'Limerick', 'Waterford'];
const ES_CITIES = ['Madrid', 'Barcelona', 'Valencia', 'Sevilla', 'Bilbao', 'Zaragoza'];
const ES_STREETS = ['Mayor', 'del Sol', 'de Alcalá', 'Real', 'de la Luna', 'San Vicente'];

export interface Address {
  /** Street line(s), then the city line; the last line may name the country. */
  lines: string[];
  city: string;
  /** US state name, or null outside the US. */
  state: string | null;
  country: Country;
}

const letter = (rng: Rng) => String.fromCharCode(65 + rng.int(0, 25));

export function address(rng: Rng, country: Country, withCountry = false): Address {
  let lines: string[];
  let city: string;
  let state: string | null = null;
  switch (country) {
    case 'US': {
      const [c, st] = rng.pick(US_CITIES);
      city = c;
      state = US_STATES.find(([, a]) => a === st)![0];
      lines = [`${rng.int(10, 9899)} ${rng.pick(STREET_NAMES)} ${rng.pick(US_STREET_TYPES)}`];
      if (rng.chance(0.35)) lines.push(`Suite ${rng.int(1, 9)}${rng.int(0, 9)}0`);
      lines.push(`${c}, ${st} ${rng.int(10000, 99950)}`);
      break;
    }
    case 'CA': {
      const [c, pr] = rng.pick(CA_CITIES);
      city = c;
      lines = [
        `${rng.int(10, 2999)} ${rng.pick(STREET_NAMES)} ${rng.pick(['Street', 'Avenue', 'Road'])}`,
        `${c}, ${pr} ${letter(rng)}${rng.int(1, 9)}${letter(rng)} ${rng.int(1, 9)}${letter(rng)}${rng.int(1, 9)}`,
      ];
      break;
    }
    case 'UK': {
      const [c, pc] = rng.pick(UK_CITIES);
      city = c;
      lines = [
        `${rng.int(1, 240)} ${rng.pick(STREET_NAMES)} ${rng.pick(['Road', 'Street', 'Lane', 'Way', 'Gardens'])}`,
        `${c} ${pc}${rng.int(1, 20)} ${rng.int(1, 9)}${letter(rng)}${letter(rng)}`,
      ];
      break;
    }
    case 'IE': {
      city = rng.pick(IE_CITIES);
      lines = [
        `${rng.int(1, 120)} ${rng.pick(STREET_NAMES)} ${rng.pick(['Road', 'Street', 'Quay'])}`,
        `${city} ${letter(rng)}${rng.int(10, 99)} ${letter(rng)}${rng.int(100, 999)}`,
      ];
      break;
    }
    case 'AU': {
      const [c, st, pc] = rng.pick(AU_CITIES);
      city = c;
      lines = [`${rng.int(1, 400)} ${rng.pick(STREET_NAMES)} Street`, `${c} ${st} ${pc + rng.int(0, 99)}`];
      break;
    }
    case 'DE':
      city = rng.pick(DE_CITIES);
      lines = [`${rng.pick(DE_STREETS)}straße ${rng.int(1, 180)}`, `${rng.int(10115, 99998)} ${city}`];
      break;
    case 'FR':
      city = rng.pick(FR_CITIES);
      lines = [
        `${rng.int(1, 150)} rue ${rng.pick(FR_STREETS)}`,
        `${rng.int(10, 95)}${rng.int(100, 999)} ${city}`,
      ];
      break;
    case 'NL':
      city = rng.pick(NL_CITIES);
      lines = [
        `${rng.pick(NL_STREETS)}straat ${rng.int(1, 300)}`,
        `${rng.int(1011, 9999)} ${letter(rng)}${letter(rng)} ${city}`,
      ];
      break;
    case 'ES':
      city = rng.pick(ES_CITIES);
      lines = [`Calle ${rng.pick(ES_STREETS)} ${rng.int(1, 120)}`, `${rng.int(10001, 50999)} ${city}`];
      break;
  }
  if (withCountry) lines.push(COUNTRY_NAMES[country]);
  return { lines, city, state, country };
}

/** An address in a given US state (for leases and registrations). */
export function usAddressIn(rng: Rng, state: string): Address {
  const abbr = US_STATES.find(([n]) => n === state)![1];
  const city = rng.pick([
    'Fairview',
    'Georgetown',
    'Riverside',
    'Clinton',
    'Franklin',
    'Greenville',
    'Salem',
    'Madison',
  ]);
  const lines = [
    `${rng.int(10, 9899)} ${rng.pick(STREET_NAMES)} ${rng.pick(US_STREET_TYPES)}`,
    `${city}, ${abbr} ${rng.int(10000, 99950)}`,
  ];
  return { lines, city, state, country: 'US' };
}

export function phone(rng: Rng, country: Country): string {
  const d = (n: number) => Array.from({ length: n }, () => rng.int(0, 9)).join('');
  switch (country) {
    case 'US':
    case 'CA':
      return rng.chance(0.5)
        ? `(${rng.int(201, 989)}) ${rng.int(200, 989)}-${d(4)}`
        : `${rng.int(201, 989)}-${rng.int(200, 989)}-${d(4)}`;
    case 'UK':
      return `+44 ${rng.int(113, 199)} ${d(3)} ${d(4)}`;
    case 'IE':
      return `+353 ${rng.int(1, 99)} ${d(3)} ${d(4)}`;
    case 'AU':
      return `+61 ${rng.int(2, 8)} ${d(4)} ${d(4)}`;
    case 'DE':
      return `+49 ${rng.int(30, 899)} ${d(7)}`;
    case 'FR':
      return `+33 ${rng.int(1, 9)} ${d(2)} ${d(2)} ${d(2)} ${d(2)}`;
    case 'NL':
      return `+31 ${rng.int(10, 79)} ${d(3)} ${d(4)}`;
    case 'ES':
      return `+34 ${rng.int(910, 989)} ${d(3)} ${d(3)}`;
  }
}

export function emailFor(person: string, company: string): string {
  const user = person
    .normalize('NFD')
    .replace(/[^A-Za-z ]/g, '')
    .toLowerCase()
    .split(' ');
  const domain = company
    .normalize('NFD')
    .replace(/[^A-Za-z ]/g, '')
    .toLowerCase()
    .split(' ')
    .slice(0, 2)
    .join('');
  return `${user[0]}.${user[user.length - 1]}@${domain}.com`;
}

export function websiteFor(company: string): string {
  const domain = company
    .normalize('NFD')
    .replace(/[^A-Za-z ]/g, '')
    .toLowerCase()
    .split(' ')
    .slice(0, 2)
    .join('');
  return `www.${domain}.com`;
}

// ---------- goods and services ----------

export interface Product {
  name: string;
  /** Unit price range in the document currency. */
  price: [number, number];
  unit: string;
}

export const GOODS: Product[] = [
  { name: 'Stainless steel hinge, 4 in', price: [2, 9], unit: 'ea' },
  { name: 'Copy paper A4, 80 gsm (box)', price: [18, 42], unit: 'box' },
  { name: 'LED panel light 600x600', price: [35, 90], unit: 'ea' },
  { name: 'Ergonomic office chair', price: [140, 420], unit: 'ea' },
  { name: 'Nitrile gloves, size M (100)', price: [6, 15], unit: 'box' },
  { name: 'Hydraulic hose assembly', price: [45, 160], unit: 'ea' },
  { name: 'Cat6 patch cable, 2 m', price: [3, 8], unit: 'ea' },
  { name: 'Pallet wrap film, 500 mm', price: [12, 30], unit: 'roll' },
  { name: 'Toner cartridge, black', price: [55, 140], unit: 'ea' },
  { name: 'Safety boots, composite toe', price: [60, 150], unit: 'pair' },
  { name: 'Laptop docking station', price: [110, 260], unit: 'ea' },
  { name: 'Whiteboard markers (12)', price: [7, 19], unit: 'pack' },
  { name: 'Industrial floor cleaner, 5 L', price: [20, 48], unit: 'can' },
  { name: 'Hex bolts M10 x 40 (50)', price: [9, 24], unit: 'bag' },
  { name: 'Corrugated boxes 40x30x30', price: [1, 4], unit: 'ea' },
  { name: 'Standing desk frame', price: [230, 520], unit: 'ea' },
  { name: 'Thermal labels 100x150 (500)', price: [14, 32], unit: 'roll' },
  { name: 'Cordless drill 18V', price: [85, 210], unit: 'ea' },
  { name: 'First aid kit, workplace', price: [25, 70], unit: 'ea' },
  { name: 'Wireless keyboard and mouse', price: [30, 85], unit: 'set' },
  { name: 'Coffee beans, house blend 1 kg', price: [16, 34], unit: 'bag' },
  { name: 'Fire extinguisher, 6 kg', price: [45, 110], unit: 'ea' },
  { name: 'Monitor arm, dual', price: [60, 180], unit: 'ea' },
  { name: 'Aluminium ladder, 3 m', price: [95, 240], unit: 'ea' },
  { name: 'Printer paper roll 57 mm', price: [1, 3], unit: 'roll' },
  { name: 'Hand sanitiser 500 ml', price: [3, 9], unit: 'btl' },
];

export const SERVICES: Product[] = [
  { name: 'Network maintenance', price: [80, 180], unit: 'hr' },
  { name: 'Website hosting (monthly)', price: [20, 120], unit: 'mo' },
  { name: 'Bookkeeping services', price: [45, 110], unit: 'hr' },
  { name: 'Office cleaning', price: [25, 60], unit: 'hr' },
  { name: 'Consulting - process review', price: [120, 260], unit: 'hr' },
  { name: 'Software licence renewal', price: [300, 2400], unit: 'yr' },
  { name: 'Graphic design work', price: [60, 140], unit: 'hr' },
  { name: 'Security guard services', price: [22, 45], unit: 'hr' },
  { name: 'Equipment calibration', price: [150, 600], unit: 'ea' },
  { name: 'Translation services', price: [0.1, 0.3], unit: 'word' },
  { name: 'Freight and handling', price: [40, 400], unit: 'lot' },
  { name: 'On-site technical support', price: [90, 200], unit: 'hr' },
  { name: 'Data backup service', price: [30, 250], unit: 'mo' },
  { name: 'Payroll processing', price: [4, 12], unit: 'emp' },
  { name: 'HVAC inspection', price: [180, 450], unit: 'ea' },
  { name: 'Staff training session', price: [400, 1800], unit: 'day' },
  { name: 'Legal document review', price: [150, 380], unit: 'hr' },
  { name: 'Cloud storage 1 TB', price: [8, 25], unit: 'mo' },
];

export const STORE_ITEMS: Product[] = [
  { name: 'Sparkling water', price: [1, 3], unit: '' },
  { name: 'Sourdough loaf', price: [3, 7], unit: '' },
  { name: 'Flat white', price: [3, 5], unit: '' },
  { name: 'Bananas', price: [1, 3], unit: '' },
  { name: 'Greek yoghurt', price: [2, 5], unit: '' },
  { name: 'AA batteries 4pk', price: [4, 9], unit: '' },
  { name: 'Notebook A5', price: [3, 8], unit: '' },
  { name: 'Chicken wrap', price: [5, 9], unit: '' },
  { name: 'Orange juice 1L', price: [2, 5], unit: '' },
  { name: 'Dish soap', price: [2, 4], unit: '' },
  { name: 'Croissant', price: [2, 4], unit: '' },
  { name: 'Paper towels', price: [3, 7], unit: '' },
  { name: 'Ballpoint pens 10pk', price: [3, 6], unit: '' },
  { name: 'Green salad', price: [5, 10], unit: '' },
  { name: 'Cheddar 250g', price: [3, 6], unit: '' },
  { name: 'Phone charger', price: [9, 25], unit: '' },
  { name: 'Granola bar', price: [1, 3], unit: '' },
  { name: 'Masking tape', price: [2, 5], unit: '' },
  { name: 'Iced tea', price: [2, 4], unit: '' },
  { name: 'Tomato soup', price: [2, 5], unit: '' },
];

export const BANKS = [
  'First Meridian Bank',
  'Harbourline Savings Bank',
  'Northfield Trust Company',
  'Cascade Federal Credit Union',
  'Albion & Rowe Bank',
  'Rheinland Handelsbank',
  'Banque du Val',
  'Zuiderbank',
  'Southern Cross Mutual Bank',
  'Maple Commerce Bank',
  'Lakeshore National Bank',
  'Granite State Savings',
  'Pinewood Community Bank',
  'Atlantic Crown Bank',
  'Sierra Pacific Bancorp',
];

// ---------- numbers and money ----------

export const round2 = (n: number) => Math.round(n * 100) / 100;

function group(intPart: string, sep: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, sep);
}

/** 1234.5 → "1,234.50" with the locale's separators; `decimals` 0 drops the cents. */
export function fmtNumber(value: number, separators: [string, string] = [',', '.'], decimals = 2): string {
  const fixed = Math.abs(value).toFixed(decimals);
  const [i, f] = fixed.split('.');
  const body = group(i!, separators[0]) + (f ? separators[1] + f : '');
  return value < 0 ? `-${body}` : body;
}

const SYMBOLS: Record<CurrencyCode, string> = { USD: '$', GBP: '£', EUR: '€', AUD: 'A$', CAD: 'CA$' };

export interface MoneyFormat {
  currency: CurrencyCode;
  style: MoneyStyle;
  separators: [string, string];
  /** How negatives are written. */
  negative: 'minus' | 'parens';
}

export function moneyFormat(rng: Rng, locale: Locale): MoneyFormat {
  return {
    currency: locale.currency,
    style: rng.pick(locale.moneyStyles),
    separators: locale.separators,
    negative: rng.chance(0.7) ? 'minus' : 'parens',
  };
}

/** Money as the document writes it: $1,234.56, USD 1,234.56, 1.234,56 €, EUR 12 500,00. */
export function fmtMoney(value: number, f: MoneyFormat, style: MoneyStyle = f.style): string {
  const body = fmtNumber(Math.abs(value), style === 'codeSpace' ? [' ', ','] : f.separators);
  let s: string;
  switch (style) {
    case 'symbol':
      s = `${SYMBOLS[f.currency]}${body}`;
      break;
    case 'code':
    case 'codeSpace':
      s = `${f.currency} ${body}`;
      break;
    case 'suffix':
      s = `${body} ${SYMBOLS[f.currency]}`;
      break;
    case 'plain':
      s = body;
      break;
  }
  if (value >= 0) return s;
  return f.negative === 'parens' ? `(${s})` : `-${s}`;
}

/** How the currency shows in a money string, to cite for a currency question. */
export function currencyMark(f: MoneyFormat): string {
  return f.style === 'code' || f.style === 'codeSpace' || f.style === 'plain'
    ? f.currency
    : SYMBOLS[f.currency];
}

/** A random amount with cents in [lo, hi]. */
export function amount(rng: Rng, lo: number, hi: number, cents = true): number {
  const v = lo + rng.next() * (hi - lo);
  return cents ? round2(v) : Math.round(v);
}

const ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];

export function numberWords(n: number): string {
  if (n < 20) return ONES[n]!;
  if (n < 100) return TENS[Math.floor(n / 10)]! + (n % 10 ? `-${ONES[n % 10]}` : '');
  if (n < 1000) {
    const rest = n % 100;
    return `${ONES[Math.floor(n / 100)]} hundred${rest ? ` and ${numberWords(rest)}` : ''}`;
  }
  const rest = n % 1000;
  return `${numberWords(Math.floor(n / 1000))} thousand${rest ? ` ${numberWords(rest)}` : ''}`;
}

// ---------- dates ----------

export interface SimpleDate {
  y: number;
  m: number;
  d: number;
}

export const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const ORDINAL_WORDS = [
  '',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
  'twenty-first',
  'twenty-second',
  'twenty-third',
  'twenty-fourth',
  'twenty-fifth',
  'twenty-sixth',
  'twenty-seventh',
  'twenty-eighth',
  'twenty-ninth',
  'thirtieth',
  'thirty-first',
];

const pad2 = (n: number) => String(n).padStart(2, '0');

export const isoOf = (d: SimpleDate) => `${d.y}-${pad2(d.m)}-${pad2(d.d)}`;

export function ordinal(n: number): string {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
}

export function randomDay(rng: Rng, fromYear = 2019, toYear = 2026): SimpleDate {
  return addDays({ y: rng.int(fromYear, toYear), m: 1, d: 1 }, rng.int(0, 364));
}

export function addDays(date: SimpleDate, days: number): SimpleDate {
  const t = new Date(Date.UTC(date.y, date.m - 1, date.d + days));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

export function addMonths(date: SimpleDate, months: number): SimpleDate {
  const t = new Date(Date.UTC(date.y, date.m - 1 + months, 1));
  const last = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: Math.min(date.d, last) };
}

export function fmtDate(date: SimpleDate, style: DateStyle): string {
  const { y, m, d } = date;
  const month = MONTHS[m - 1]!;
  switch (style) {
    case 'long':
      return `${month} ${d}, ${y}`;
    case 'abbr':
      return `${month.length > 4 ? `${month.slice(0, 3)}.` : month} ${d}, ${y}`;
    case 'dayLong':
      return `${d} ${month} ${y}`;
    case 'dayShort':
      return `${d} ${month.slice(0, 3)} ${y}`;
    case 'mdy':
      return `${pad2(m)}/${pad2(d)}/${y}`;
    case 'dmy':
      return `${pad2(d)}/${pad2(m)}/${y}`;
    case 'iso':
      return isoOf(date);
    case 'dotted':
      return `${pad2(d)}.${pad2(m)}.${y}`;
    case 'dmyDash':
      return `${pad2(d)}-${pad2(m)}-${y}`;
    case 'ordinal':
      return `${ordinal(d)} day of ${month}, ${y}`;
    case 'ordinalWord':
      return `${ORDINAL_WORDS[d]} day of ${month}, ${y}`;
  }
}

/** A date style for running text: never a bare numeric form in a sentence of a contract. */
export function proseDateStyle(rng: Rng, locale: Locale): DateStyle {
  const us = locale.country === 'US' || locale.country === 'CA';
  return rng.pick<DateStyle>(
    us ? ['long', 'long', 'abbr', 'ordinal', 'ordinalWord'] : ['dayLong', 'ordinal', 'dayLong'],
  );
}

// ---------- identifiers ----------

/** Fills a pattern: # digit, 9 non-zero digit, A capital letter, X capital or digit; others literal. */
export function makeId(rng: Rng, pattern: string): string {
  let out = '';
  for (const ch of pattern) {
    if (ch === '#') out += rng.int(0, 9);
    else if (ch === '9') out += rng.int(1, 9);
    else if (ch === 'A') out += String.fromCharCode(65 + rng.int(0, 25));
    else if (ch === 'X') out += rng.chance(0.5) ? rng.int(0, 9) : String.fromCharCode(65 + rng.int(0, 25));
    else out += ch;
  }
  return out;
}

/** A reference number in one of many house styles; `year` fills a {Y}. */
export function refNumber(rng: Rng, kind: 'invoice' | 'po' | 'customer' | 'generic', year: number): string {
  const styles: Record<typeof kind, string[]> = {
    invoice: [
      'INV-9#####',
      '{Y}/#####',
      'INV{Y}-####',
      'A9-#####',
      '9#######',
      '000######',
      'SI-{Y}-9###',
      'XXXXXX',
    ],
    po: ['PO 9#-####', 'PO-{Y}-9###', '45########', 'P9#####', 'PUR-9####'],
    customer: ['C-9####', 'CUST9####', '9#####', 'AC-9###-##', 'XXXX-9###'],
    generic: ['9#####', 'REF-9####', 'X9X9X9', '{Y}-9####', 'AA-9####'],
  };
  return makeId(rng, rng.pick(styles[kind]).replace('{Y}', String(year)));
}

// ---------- durations ----------

export interface Duration {
  n: number;
  unit: 'days' | 'months' | 'years';
  written: string;
}

/** "twelve (12) months", "3 years", "ninety days", "eighteen months". */
export function duration(rng: Rng, n: number, unit: Duration['unit']): Duration {
  const u = n === 1 ? unit.slice(0, -1) : unit;
  const style = rng.int(0, 2);
  const written =
    style === 0 ? `${numberWords(n)} (${n}) ${u}` : style === 1 ? `${n} ${u}` : `${numberWords(n)} ${u}`;
  return { n, unit, written };
}

// ---------- prose ----------

export function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
