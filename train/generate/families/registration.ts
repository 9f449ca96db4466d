/**
 * Government business-registration forms: numbered items, checkbox lists for the entity
 * type, registration number and dates, principals, filing fee, seal and signatures.
 */
import { Flow, type Fonts, field, footers } from '../layout.ts';
import { PAGE, PdfDoc, type PdfPage } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { sealRaster } from '../raster.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addMonths,
  amount,
  companyName,
  fmtDate,
  isoOf,
  makeId,
  people,
  personName,
  randomDay,
  US_STATE_NAMES,
  usAddressIn,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { checkList, picture, signatureBlock } from './common.ts';

const ENTITY_TYPES = [
  'Sole proprietorship',
  'General partnership',
  'Corporation',
  'Limited liability company',
  'Nonprofit corporation',
];
const PRODUCERS = ['numbered-lines', 'numbered-boxes', 'two-page'] as const;
const FONT_CHOICES: Fonts[] = [
  { regular: 'Times-Roman', bold: 'Times-Bold' },
  { regular: 'Helvetica', bold: 'Helvetica-Bold' },
  { regular: 'Courier', bold: 'Courier-Bold' },
];

/** What a registered business does, as owners describe it on the form. */
const ACTIVITIES = [
  'Retail sale of garden supplies',
  'Residential cleaning services',
  'Software development and consulting',
  'Catering for private events',
  'Commercial vehicle repair',
  'Import and wholesale of coffee',
  'Bookkeeping for small businesses',
  'Custom furniture manufacturing',
];

async function generate(seed: number) {
  const rng = makeRng(hashSeed('registration', seed));
  const producer = rng.pick(PRODUCERS);
  const fonts = rng.pick(FONT_CHOICES);
  const state = rng.pick(US_STATE_NAMES);
  const entity = rng.pick(ENTITY_TYPES);
  const suffix =
    entity === 'Corporation'
      ? rng.pick(['Inc.', 'Corp.'])
      : entity === 'Limited liability company'
        ? 'LLC'
        : entity === 'General partnership'
          ? rng.pick(['& Partners', 'Associates'])
          : entity === 'Nonprofit corporation'
            ? rng.pick(['Foundation', 'Association Inc.'])
            : rng.pick(['Services', 'Studio', 'Works']);
  const stem = companyName(rng, 'US').split(' ').slice(0, -1).join(' ');
  const registrant = `${stem} ${suffix}`;
  const regNo = makeId(
    rng,
    rng
      .pick(['9########', 'B9#######', '{Y}-9######', 'L9######-#'])
      .replace('{Y}', String(2000 + rng.int(10, 26))),
  );
  const filed = randomDay(rng);
  const dateStyle = rng.pick(['mdy', 'long', 'abbr'] as const);
  const d = (x: typeof filed) => fmtDate(x, dateStyle);
  const expires = rng.chance(0.75) ? addMonths(filed, 12 * rng.pick([1, 2, 5])) : null;
  const foreign = rng.chance(0.5);
  const homeState = foreign ? rng.pick(US_STATE_NAMES.filter((s) => s !== state)) : state;
  const principals = people(rng, entity === 'Sole proprietorship' ? 1 : rng.int(2, 4));
  const agent = rng.chance(0.7) ? personName(rng, principals) : null;
  const fee = amount(rng, 10, 300, false) + rng.pick([0, 0.5]);
  const office = usAddressIn(rng, state);
  const typed = rng.chance(0.5);
  const dateLabel = rng.pick(['Date filed', 'Filing date', 'Date of registration']);

  const doc = new PdfDoc();
  const fs = rng.pick([9, 9.5, 10]);
  const flow = new Flow(doc, {
    size: rng.chance(0.8) ? PAGE.letter : PAGE.legal,
    margins: { top: 40, bottom: 76, left: 54, right: 54 },
    fonts,
    fontSize: fs,
  });
  const p = flow.page;
  const at: Record<string, Ev> = {};
  const images: RegionAnswer[] = [];
  // Agency header with the seal.
  const seal = picture(
    p,
    flow.left,
    flow.y,
    62,
    sealRaster(
      rng,
      state
        .split(' ')
        .map((w) => w[0])
        .join(''),
    ),
  );
  images.push(seal);
  const agency = rng.pick([
    'Secretary of State',
    'Department of State',
    'Division of Corporations',
    'Department of Revenue',
  ]);
  p.text(flow.left + 74, flow.y + 14, `STATE OF ${state.toUpperCase()}`, fonts.bold, 13);
  p.text(flow.left + 74, flow.y + 30, `Office of the ${agency}`, fonts.regular, fs);
  p.text(
    flow.left + 74,
    flow.y + 44,
    rng.pick(['Business Registration Section', 'Business Services Division', 'Corporations Unit']),
    fonts.regular,
    fs,
  );
  // Filing box on the right.
  const bx = flow.right - 150;
  p.rect(bx, flow.y, 150, 58, { stroke: 0.8 });
  p.text(bx + 4, flow.y + 9, 'FOR OFFICE USE ONLY', fonts.bold, 6.5, { color: 0.3 });
  p.text(bx + 6, flow.y + 24, `File No. ${regNo}`, fonts.regular, fs - 0.5);
  p.text(bx + 6, flow.y + 38, `Filed: ${d(filed)}`, fonts.regular, fs - 0.5);
  p.text(bx + 6, flow.y + 52, `Fee: $${fee.toFixed(2)}`, fonts.regular, fs - 0.5);
  at.no = ev(1, regNo);
  at.filed = ev(1, d(filed));
  at.fee = ev(1, `$${fee.toFixed(2)}`);
  let y = flow.y + 62 + 16;
  const title = rng.pick([
    'APPLICATION FOR REGISTRATION OF BUSINESS NAME',
    'BUSINESS ENTITY REGISTRATION',
    'ASSUMED NAME CERTIFICATE',
    'STATEMENT OF REGISTRATION',
  ]);
  p.text(flow.left + flow.width / 2, y + 13, title, fonts.bold, 12.5, { align: 'center' });
  y += 20;
  p.text(
    flow.left + flow.width / 2,
    y + fs,
    rng.pick([
      'Please type or print clearly in black ink.',
      'Read the instructions before completing this form.',
    ]),
    fonts.regular,
    fs - 1,
    { align: 'center', color: 0.35 },
  );
  y += fs * 2.2;

  const boxes = producer === 'numbered-boxes';
  const item = (n: number, labelText: string, value: string, key: string | null) => {
    const l = `${n}. ${labelText}`;
    if (boxes) {
      y += field(p, flow.left, y, flow.width, l, value, 'boxCorner', { fonts, size: fs }) + 2;
    } else {
      const [, end] = p.text(flow.left, y + fs, l, fonts.bold, fs);
      const vx = Math.max(end + 8, flow.left + flow.width * 0.42);
      p.text(vx, y + fs, value, fonts.regular, fs);
      p.line(vx - 2, y + fs + 2.5, flow.right, y + fs + 2.5, 0.4, 0.5);
      y += fs * 2;
    }
    if (key) at[key] = ev(1, value);
  };
  let n = 1;
  item(
    n++,
    rng.pick(['Name of registrant', 'Exact name of the business', 'Business name']),
    registrant,
    'registrant',
  );
  // Entity type checkboxes.
  p.text(
    flow.left,
    y + fs,
    `${n++}. ${rng.pick(['Type of entity (check one)', 'Entity type', 'The business is a (check one)'])}:`,
    fonts.bold,
    fs,
  );
  y += fs * 1.6;
  const list = checkList(p, flow.left + 14, y, flow.width - 14, fonts, fs, ENTITY_TYPES, entity, typed);
  at.entity = ev(1, list.quote);
  y = list.bottom + 4;
  item(
    n++,
    rng.pick(['Principal office address', 'Address of principal place of business']),
    office.lines.join(', '),
    null,
  );
  at.office_street = ev(1, office.lines[0]!);
  // Foreign entity question.
  const fq = rng.pick([
    'Was the entity formed outside this state?',
    'Is this a foreign (out-of-state) entity?',
  ]);
  p.text(flow.left, y + fs, `${n++}. ${fq}`, fonts.bold, fs);
  y += fs * 1.6;
  const yn = checkList(
    p,
    flow.left + 14,
    y,
    flow.width - 14,
    fonts,
    fs,
    ['Yes', 'No'],
    foreign ? 'Yes' : 'No',
    typed,
  );
  at.foreign = ev(1, yn.quote);
  y = yn.bottom;
  item(n++, rng.pick(['State or country of formation', 'Jurisdiction of formation']), homeState, null);
  // What the business does, on most forms; drawn apart from the main stream.
  const trade = makeRng(hashSeed('registration:activity', seed));
  const activity = trade.chance(0.7) ? trade.pick(ACTIVITIES) : null;
  if (activity) {
    item(
      n++,
      trade.pick(['Nature of business', 'Principal business activity', 'Purpose of the business']),
      activity,
      'activity',
    );
  }
  if (agent)
    item(
      n++,
      rng.pick(['Registered agent', 'Name of registered agent', 'Agent for service of process']),
      agent,
      'agent',
    );
  const commenced = addMonths(filed, -rng.int(1, 30));
  if (rng.chance(0.6))
    item(n++, rng.pick(['Date business commenced', 'Date of first use of name']), d(commenced), 'commenced');
  item(
    n++,
    rng.pick(['Registration expires', 'Expiration date', 'Valid until']),
    expires ? d(expires) : rng.pick(['Does not expire', 'N/A - perpetual']),
    expires ? 'expires' : null,
  );

  // Principals, here or on a schedule page.
  const principalLabel = rng.pick([
    'Names of owners / principals',
    'Principals (name and title)',
    'Full names of all owners',
  ]);
  const titles = ['Owner', 'Managing member', 'President', 'Partner', 'Director', 'Secretary'];
  const principalEv: Ev[] = [];
  const writePrincipals = (page: PdfPage, top: number) => {
    let yy = top;
    page.text(flow.left, yy + fs, `${n++}. ${principalLabel}:`, fonts.bold, fs);
    yy += fs * 1.7;
    principals.forEach((name, i) => {
      page.text(flow.left + 14, yy + fs, `${String.fromCharCode(97 + i)})`, fonts.regular, fs);
      page.text(flow.left + 34, yy + fs, name, fonts.regular, fs);
      page.text(flow.left + flow.width * 0.55, yy + fs, rng.pick(titles), fonts.regular, fs);
      principalEv.push(ev(page.number, name));
      yy += fs * 1.6;
    });
    return yy + 6;
  };
  let page = p;
  if (producer === 'two-page') {
    p.text(
      flow.left,
      y + fs,
      `${n}. See Schedule A (attached) for the names of the principals.`,
      fonts.bold,
      fs,
    );
    flow.y = y + fs * 2;
    flow.newPage();
    page = flow.page;
    page.text(flow.left, flow.y + 13, 'SCHEDULE A - PRINCIPALS', fonts.bold, 12);
    y = writePrincipals(page, flow.y + 24);
  } else {
    y = writePrincipals(p, y);
  }

  // Declaration and signatures.
  const sigs: RegionAnswer[] = [];
  const decl = `I declare under penalty of perjury under the laws of the State of ${state} that the statements in this ${rng.pick(['application', 'registration'])} are true and correct.`;
  flow.y = y + 4;
  flow.para(decl, { size: fs - 0.5 });
  y = flow.y;
  page = flow.page;
  const s1 = signatureBlock(page, rng, {
    x: flow.left,
    y,
    w: 140,
    fonts,
    name: principals[0]!,
    title: rng.pick(titles),
    caption: 'Signature of registrant',
    size: fs - 1,
  });
  sigs.push(s1.region);
  if (rng.chance(0.6)) {
    const s2 = signatureBlock(page, rng, {
      x: flow.left + flow.width * 0.55,
      y,
      w: 140,
      fonts,
      name: personName(rng, principals),
      title: `Deputy ${agency}`,
      caption: 'Filing officer',
      size: fs - 1,
    });
    sigs.push(s2.region);
    y = Math.max(s1.bottom, s2.bottom);
  } else y = s1.bottom;
  flow.y = y;
  footers(flow, rng, [
    `Form ${makeId(rng, 'AA-9#')} · ${agency}, State of ${state}`,
    `Filing fee is non-refundable. Rev. ${filed.y - rng.int(1, 5)}`,
  ]);

  const q = new Questions();
  q.text(
    'registrant',
    ['Who is the registrant?', 'Registered business name', 'Name of the business being registered'],
    registrant,
    at.registrant,
  );
  q.text(
    'registration_no',
    ['What is the registration number?', 'File number', 'Which number was assigned to this filing?'],
    regNo,
    at.no,
  );
  q.text(
    'business_activity',
    ['What does the business do?', 'Nature of business', 'Which activity is the business registered for?'],
    activity,
    at.activity,
  );
  q.text(
    'office_street',
    [
      'What is the street address of the principal office?',
      'Principal office (street)',
      'On which street is the business located?',
    ],
    office.lines[0],
    at.office_street,
  );
  q.text(
    'registered_agent',
    ['Who is the registered agent?', 'Agent for service of process', 'Registered agent name'],
    agent,
    at.agent,
  );
  q.date(
    'filing_day',
    ['When was the registration filed?', dateLabel, 'Filing date of the form'],
    isoOf(filed),
    at.filed,
  );
  q.date(
    'expiry_day',
    ['When does the registration expire?', 'Expiration date', 'Registration valid until'],
    expires ? isoOf(expires) : null,
    at.expires,
  );
  q.stated(
    'expiry_stated',
    [
      'Does the registration state an expiry date?',
      'Is an expiration date given?',
      'Is there an end date to the registration?',
    ],
    expires,
    at.expires,
  );
  q.date(
    'commencement_day',
    ['When did the business start?', 'Date business commenced', 'Date the name was first used'],
    isoOf(commenced),
    at.commenced,
  );
  q.number(
    'filing_fee',
    ['How much was the filing fee?', 'Fee paid', 'Registration fee in dollars'],
    fee,
    at.fee,
  );
  q.category(
    'entity_type',
    ['What type of entity is registered?', 'Entity type', 'Which kind of business is it?'],
    ENTITY_TYPES,
    entity,
    at.entity,
  );
  q.bool(
    'foreign_entity',
    ['Was the entity formed outside this state?', 'Foreign entity?', 'Is the business out-of-state?'],
    foreign,
    at.foreign,
  );
  q.items(
    'principals',
    ['List the principals.', 'Owners named on the form', 'Who are the owners or principals?'],
    principalEv,
  );
  q.image('official_seal', ['Where is the state seal?', 'Official seal', 'Seal of the agency'], seal);
  q.images('signatures', ['All signatures', 'Find the signatures on this filing.', 'Signature images'], sigs);
  q.text(
    'form_title',
    ['What is the title of the form?', 'Form title', 'What is this filing called?'],
    title,
    ev(1, title),
  );
  return pdfDoc('registration', seed, `${producer}${typed ? '+typed' : ''}`, doc.save(), q);
}

export const registration: Family = { name: 'registration', generate };
