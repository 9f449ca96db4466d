/**
 * Certificates: of liability insurance (a grid of policies), of course completion and of
 * incorporation (centred formal text in a border), with seals and signatures.
 */
import { type Column, Flow, FONT_SETS, type Fonts, fitSize, table, tableStyle } from '../layout.ts';
import { PAGE, PdfDoc, type PdfPage, wrapText } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { sealRaster } from '../raster.ts';
import { hashSeed, makeRng, type Rng } from '../rng.ts';
import {
  addMonths,
  address,
  amount,
  companyName,
  fmtDate,
  fmtNumber,
  initialsOf,
  isoOf,
  makeId,
  people,
  personName,
  randomDay,
  type SimpleDate,
} from '../text.ts';
import type { Family, GeneratedDoc, RegionAnswer } from '../types.ts';
import { picture, signatureBlock } from './common.ts';

const COVERAGES = [
  'General liability',
  'Professional liability',
  'Workers compensation',
  'Commercial auto',
  'Property',
];
const MODES = ['Online', 'In person', 'Blended'];
const PLACES = ['England and Wales', 'Scotland', 'Northern Ireland', 'Ireland', 'Delaware', 'Ontario'];
const COURSES: [string, string[]][] = [
  [
    'Workplace First Aid',
    [
      'Primary survey',
      'CPR and defibrillation',
      'Bleeding and shock',
      'Burns and scalds',
      'Recovery position',
    ],
  ],
  [
    'Project Management Fundamentals',
    ['Project initiation', 'Scheduling', 'Risk management', 'Stakeholder communication', 'Project closure'],
  ],
  [
    'Food Safety Level 2',
    [
      'Food hygiene law',
      'Cross-contamination',
      'Temperature control',
      'Cleaning and disinfection',
      'Allergen management',
    ],
  ],
  [
    'Data Protection Essentials',
    [
      'Principles of processing',
      'Lawful bases',
      'Data subject rights',
      'Breach reporting',
      'International transfers',
    ],
  ],
  [
    'Forklift Operator Safety',
    [
      'Pre-use inspection',
      'Load handling',
      'Stability principles',
      'Pedestrian safety',
      'Refuelling and charging',
    ],
  ],
];

function border(page: PdfPage, rng: Rng): void {
  const m = rng.pick([24, 30, 36]);
  page.rect(m, m, page.width - 2 * m, page.height - 2 * m, { stroke: 2.5, color: [120, 90, 30] });
  if (rng.chance(0.7))
    page.rect(m + 6, m + 6, page.width - 2 * m - 12, page.height - 2 * m - 12, {
      stroke: 0.8,
      color: [120, 90, 30],
    });
}

function centred(
  page: PdfPage,
  y: number,
  text: string,
  font: Fonts['regular'],
  size: number,
  width: number,
): number {
  for (const l of wrapText(text, font, size, width)) {
    page.text(page.width / 2, y + size, l, font, fitSize(l, font, size, width), { align: 'center' });
    y += size * 1.45;
  }
  return y;
}

const TITLE_PROMPTS = [
  'What is the title of the certificate?',
  'Certificate title',
  'What is this document called?',
];

async function generate(seed: number): Promise<GeneratedDoc> {
  const rng = makeRng(hashSeed('certificate', seed));
  const kind = rng.pick(['insurance', 'completion', 'incorporation'] as const);
  const fonts = rng.pick(FONT_SETS.slice(0, 2));
  const issued = randomDay(rng);
  const ds = rng.pick(['long', 'dayLong', 'mdy', 'abbr'] as const);
  const d = (x: SimpleDate) => fmtDate(x, ds);
  const doc = new PdfDoc();
  const q = new Questions();
  const sigs: RegionAnswer[] = [];
  let seal: RegionAnswer;

  if (kind === 'insurance') {
    const flow = new Flow(doc, {
      size: PAGE.letter,
      margins: { top: 40, bottom: 60, left: 40, right: 40 },
      fonts,
      fontSize: 8.5,
    });
    const p = flow.page;
    const insurer = `${rng.pick(['Harborview', 'Keystone', 'Pioneer Mutual', 'Ashford', 'Bluecrest', 'Northbridge'])} ${rng.pick(['Insurance Company', 'Casualty Co.', 'Assurance Ltd.', 'Indemnity Corp.'])}`;
    const insured = companyName(rng, 'US');
    const holder = companyName(rng, 'US', [insured]);
    const certNo = makeId(
      rng,
      rng.pick(['COI-9######', '{Y}-9####', '9########']).replace('{Y}', String(issued.y)),
    );
    const covers = rng.sample(COVERAGES, rng.int(2, 4));
    const main = covers[0]!;
    const policies = covers.map((c) => ({
      c,
      no: makeId(
        rng,
        `${c
          .split(' ')
          .map((w) => w[0])
          .join('')
          .toUpperCase()}-9######`,
      ),
      from: addMonths(issued, -rng.int(0, 6)),
      limit: amount(rng, 5, 50, false) * 100_000,
      addl: rng.chance(0.5),
    }));
    const expires = addMonths(policies[0]!.from, 12);
    const showExp = rng.chance(0.85);
    seal = picture(p, flow.right - 70, flow.y, 70, sealRaster(rng, initialsOf(insurer)));
    p.text(flow.left, flow.y + 16, 'CERTIFICATE OF LIABILITY INSURANCE', fonts.bold, 15);
    const titleEv = ev(1, 'CERTIFICATE OF LIABILITY INSURANCE');
    p.text(flow.left, flow.y + 32, `DATE (MM/DD/YYYY): ${fmtDate(issued, 'mdy')}`, fonts.regular, 8.5);
    p.text(flow.left, flow.y + 46, `Certificate No. ${certNo}`, fonts.bold, 9);
    flow.y += 84;
    flow.para(
      'THIS CERTIFICATE IS ISSUED AS A MATTER OF INFORMATION ONLY AND CONFERS NO RIGHTS UPON THE CERTIFICATE HOLDER. THIS CERTIFICATE DOES NOT AMEND, EXTEND OR ALTER THE COVERAGE AFFORDED BY THE POLICIES BELOW.',
      { size: 7 },
    );
    const y0 = flow.y;
    const half = (flow.width - 10) / 2;
    const block = (x: number, title: string, lines: string[]) => {
      p.rect(x, y0, half, 62, { stroke: 0.6 });
      p.text(x + 4, y0 + 9, title, fonts.bold, 7);
      lines.forEach((l, i) => {
        p.text(x + 6, y0 + 22 + i * 11, l, fonts.regular, 8.5);
      });
    };
    block(flow.left, 'INSURED', [insured, ...address(rng, 'US').lines]);
    block(flow.left + half + 10, 'INSURER(S) AFFORDING COVERAGE', [
      `INSURER A: ${insurer}`,
      `NAIC # ${makeId(rng, '9####')}`,
    ]);
    flow.y = y0 + 72;
    const cols: Column[] = [
      { title: 'TYPE OF INSURANCE', width: 24 },
      { title: 'ADDL INSD', width: 8, align: 'center' },
      { title: 'POLICY NUMBER', width: 18 },
      { title: 'POLICY EFF', width: 13 },
      { title: 'POLICY EXP', width: 13 },
      { title: 'LIMIT (EACH OCCURRENCE)', width: 22, align: 'right' },
    ];
    const pages = table(
      flow,
      cols,
      policies.map((pol, i) => [
        pol.c,
        pol.addl ? 'Y' : 'N',
        pol.no,
        fmtDate(pol.from, 'mdy'),
        i === 0 && !showExp ? '' : fmtDate(addMonths(pol.from, 12), 'mdy'),
        `$${fmtNumber(pol.limit, [',', '.'], 0)}`,
      ]),
      { ...tableStyle(rng, fonts, 8), grid: true },
    );
    flow.space(4);
    const descr = `DESCRIPTION OF OPERATIONS: ${rng.pick(['Certificate holder is named as additional insured where required by written contract.', 'Evidence of coverage for the project described in the contract.', 'Coverage applies to operations of the named insured only.'])}`;
    flow.para(descr, { size: 7.5 });
    const hy = flow.y;
    p.rect(flow.left, hy, half, 64, { stroke: 0.6 });
    p.text(flow.left + 4, hy + 9, 'CERTIFICATE HOLDER', fonts.bold, 7);
    [holder, ...address(rng, 'US').lines].forEach((l, i) => {
      p.text(flow.left + 6, hy + 22 + i * 11, l, fonts.regular, 8.5);
    });
    p.rect(flow.left + half + 10, hy, half, 64, { stroke: 0.6 });
    p.text(flow.left + half + 14, hy + 9, 'AUTHORIZED REPRESENTATIVE', fonts.bold, 7);
    const s = signatureBlock(p, rng, {
      x: flow.left + half + 20,
      y: hy + 12,
      w: 110,
      fonts,
      name: personName(rng),
      size: 7.5,
    });
    sigs.push(s.region);
    const tableEv = (i: number, text: string) => ev(pages[i]!, text);
    q.text(
      'certificate_holder',
      ['Who is insured under this certificate?', 'Named insured', 'Which company holds the coverage?'],
      insured,
      ev(1, insured),
    );
    q.text(
      'certificate_no',
      ['What is the certificate number?', 'Certificate no.', 'Reference number of the certificate'],
      certNo,
      ev(1, certNo),
    );
    q.text(
      'issuing_body',
      ['Which insurer provides the coverage?', 'Insurer', 'Name of the insurance company'],
      insurer,
      ev(1, insurer),
    );
    q.date(
      'issue_day',
      ['When was the certificate issued?', 'Certificate date', 'Date of issue'],
      isoOf(issued),
      ev(1, fmtDate(issued, 'mdy')),
    );
    q.date(
      'valid_until',
      [
        `When does the ${main.toLowerCase()} policy expire?`,
        'Policy expiration date',
        'Coverage valid until',
      ],
      showExp ? isoOf(expires) : null,
      showExp ? tableEv(0, fmtDate(expires, 'mdy')) : null,
    );
    q.number(
      'coverage_limit',
      [
        `What is the each-occurrence limit of the ${main.toLowerCase()} policy?`,
        `${main} limit`,
        'Limit per occurrence of the first policy',
      ],
      policies[0]!.limit,
      tableEv(0, `$${fmtNumber(policies[0]!.limit, [',', '.'], 0)}`),
    );
    q.category(
      'coverage_type',
      [
        'Which type of insurance is listed first?',
        'Coverage type (first line)',
        'What is the first coverage on the certificate?',
      ],
      COVERAGES,
      main,
      tableEv(0, main),
    );
    q.bool(
      'additional_insured',
      [
        `Is the certificate holder an additional insured on the ${main.toLowerCase()} policy?`,
        'Additional insured (first policy)?',
        'ADDL INSD for the first policy',
      ],
      policies[0]!.addl,
      tableEv(0, `${main} ${policies[0]!.addl ? 'Y' : 'N'}`),
    );
    q.items(
      'policy_numbers',
      ['List the policy numbers.', 'Which policies are shown?', 'Policy numbers on the certificate'],
      policies.map((pol, i) => tableEv(i, pol.no)),
    );
    q.image('seal', ["Where is the insurer's seal?", 'Seal', 'Company seal on the certificate'], seal);
    q.images(
      'signatures',
      ['All signatures', 'Signature of the authorized representative', 'Find the signatures.'],
      sigs,
    );
    q.text('certificate_title', TITLE_PROMPTS, titleEv.quote, titleEv);
    return pdfDoc('certificate', seed, 'insurance', doc.save(), q);
  }

  // Completion and incorporation: a bordered landscape or portrait page of centred text.
  const landscape = rng.chance(0.5);
  const size: readonly [number, number] = landscape ? [792, 612] : PAGE.letter;
  const page = doc.addPage(size[0], size[1]);
  border(page, rng);
  const W = size[0];
  const inner = W - 160;
  let y = landscape ? 70 : 90;
  const at: Record<string, Ev> = {};
  if (kind === 'completion') {
    const provider = `${rng.pick(['Summit', 'Beacon', 'Meridian', 'Crestview', 'Northstar'])} ${rng.pick(['Training Academy', 'Learning Institute', 'Skills Centre', 'Professional Education'])}`;
    const recipient = personName(rng);
    const [course, modules] = rng.pick(COURSES);
    const done = rng.sample(modules, rng.int(3, 5));
    const hours = rng.pick([3, 4, 6, 7.5, 8, 12, 16, 21]);
    const mode = rng.pick(MODES);
    const distinction = rng.chance(0.5);
    const hasExpiry = rng.chance(0.65);
    const expiry = addMonths(issued, 12 * rng.pick([1, 2, 3]));
    const certNo = makeId(
      rng,
      rng.pick(['TC-9#####', '9######', 'CERT/{Y}/9###']).replace('{Y}', String(issued.y)),
    );
    y = centred(page, y, provider.toUpperCase(), fonts.bold, 13, inner);
    at.provider = ev(1, provider.toUpperCase());
    y += 10;
    const certTitle = rng.pick([
      'Certificate of Completion',
      'CERTIFICATE OF ACHIEVEMENT',
      'Certificate of Training',
    ]);
    at.title = ev(1, certTitle);
    y = centred(page, y, certTitle, fonts.bold, 26, inner) + 8;
    y = centred(page, y, 'This is to certify that', fonts.regular, 12, inner) + 4;
    y = centred(page, y, recipient, fonts.bold, 22, inner) + 4;
    at.recipient = ev(1, recipient);
    y =
      centred(
        page,
        y,
        `has successfully completed the course "${course}" (${fmtNumber(hours, [',', '.'], hours % 1 ? 1 : 0)} hours of ${rng.pick(['continuing professional development', 'training', 'instruction'])})`,
        fonts.regular,
        12,
        inner,
      ) + 4;
    at.hours = ev(1, `${fmtNumber(hours, [',', '.'], hours % 1 ? 1 : 0)} hours`);
    y = centred(page, y, `Modules completed: ${done.join(', ')}`, fonts.regular, 10, inner) + 2;
    const result = `Result: ${distinction ? 'Pass with Distinction' : 'Pass'}    Delivery: ${mode}`;
    y = centred(page, y, result, fonts.regular, 11, inner) + 4;
    at.result = ev(1, `Result: ${distinction ? 'Pass with Distinction' : 'Pass'}`);
    at.mode = ev(1, `Delivery: ${mode}`);
    const dateLine = `Awarded on ${d(issued)}${hasExpiry ? `  ·  Valid until ${d(expiry)}` : ''}  ·  Certificate No. ${certNo}`;
    y = centred(page, y, dateLine, fonts.regular, 10, inner) + 10;
    seal = picture(page, W / 2 - 40, y, 80, sealRaster(rng, initialsOf(provider)));
    const sy = y + 10;
    const s1 = signatureBlock(page, rng, {
      x: 90,
      y: sy,
      w: 130,
      fonts,
      name: personName(rng, [recipient]),
      title: rng.pick(['Course Instructor', 'Lead Trainer']),
      size: 9,
    });
    sigs.push(s1.region);
    if (rng.chance(0.6)) {
      const s2 = signatureBlock(page, rng, {
        x: W - 220,
        y: sy,
        w: 130,
        fonts,
        name: personName(rng, [recipient]),
        title: rng.pick(['Director of Training', 'Programme Director']),
        size: 9,
      });
      sigs.push(s2.region);
    }
    q.text(
      'certificate_holder',
      ['Who received this certificate?', 'Name of the certificate holder', 'Who completed the course?'],
      recipient,
      at.recipient,
    );
    q.text(
      'certificate_no',
      ['What is the certificate number?', 'Certificate no.', 'Reference number of the certificate'],
      certNo,
      ev(1, certNo),
    );
    q.text(
      'issuing_body',
      ['Which organisation issued the certificate?', 'Training provider', 'Issuer of the certificate'],
      provider.toUpperCase(),
      at.provider,
    );
    q.date(
      'issue_day',
      ['When was the certificate awarded?', 'Date of award', 'Issue date'],
      isoOf(issued),
      ev(1, d(issued)),
    );
    q.date(
      'valid_until',
      ['Until when is the certificate valid?', 'Expiry date', 'Valid until'],
      hasExpiry ? isoOf(expiry) : null,
      hasExpiry ? ev(1, d(expiry)) : null,
    );
    q.number(
      'credit_hours',
      ['How many hours did the course take?', 'Training hours', 'CPD hours awarded'],
      hours,
      at.hours,
    );
    q.category(
      'delivery_mode',
      ['How was the course delivered?', 'Delivery mode', 'Online or in person?'],
      MODES,
      mode,
      at.mode,
    );
    q.bool(
      'with_distinction',
      [
        'Was the course passed with distinction?',
        'Distinction awarded?',
        'Did the holder achieve a distinction?',
      ],
      distinction,
      at.result,
    );
    q.items(
      'modules',
      ['Which modules were completed?', 'List the modules.', 'Course modules on the certificate'],
      done.map((m) => ev(1, m)),
    );
    q.image('seal', ['Where is the seal?', 'Seal of the training provider', 'Official seal'], seal);
    q.images(
      'signatures',
      ['All signatures', 'Signatures on the certificate', 'Find every signature.'],
      sigs,
    );
    q.text('certificate_title', TITLE_PROMPTS, at.title!.quote, at.title);
    return pdfDoc('certificate', seed, `completion-${landscape ? 'landscape' : 'portrait'}`, doc.save(), q);
  }

  // Incorporation.
  const place = rng.pick(PLACES);
  const us = place === 'Delaware';
  const company = companyName(
    rng,
    us ? 'US' : place === 'Ontario' ? 'CA' : place === 'Ireland' ? 'IE' : 'UK',
  );
  const number = makeId(rng, us ? '9######' : '########');
  const byShares = rng.chance(0.5);
  const directors = people(rng, rng.int(1, 4));
  const capital = amount(rng, 1, 500, false) * (rng.chance(0.5) ? 100 : 1000);
  const registrar = us
    ? 'Secretary of State'
    : place === 'Ontario'
      ? 'Director, Business Corporations Act'
      : 'Registrar of Companies';
  const showCapital = byShares;
  y =
    centred(
      page,
      y,
      us
        ? 'State of Delaware'
        : place === 'Ontario'
          ? 'Province of Ontario'
          : `Companies Registry - ${place}`,
      fonts.regular,
      12,
      inner,
    ) + 6;
  y = centred(page, y, 'CERTIFICATE OF INCORPORATION', fonts.bold, 24, inner) + 4;
  at.title = ev(1, 'CERTIFICATE OF INCORPORATION');
  y = centred(page, y, `Company Number ${number}`, fonts.bold, 12, inner) + 8;
  y = centred(page, y, `The ${registrar} hereby certifies that`, fonts.regular, 12, inner) + 4;
  y = centred(page, y, company, fonts.bold, 20, inner) + 4;
  const formText = byShares
    ? 'is this day incorporated under the applicable companies legislation as a company limited by shares'
    : 'is this day incorporated under the applicable companies legislation as a company limited by guarantee without share capital';
  y =
    centred(
      page,
      y,
      `${formText}, and that the company is registered in ${place}.`,
      fonts.regular,
      12,
      inner,
    ) + 4;
  if (showCapital)
    y =
      centred(
        page,
        y,
        `Issued share capital on incorporation: ${fmtNumber(capital, [',', '.'], 0)} ordinary shares`,
        fonts.regular,
        11,
        inner,
      ) + 4;
  y = centred(page, y, `First directors: ${directors.join(', ')}`, fonts.regular, 11, inner) + 4;
  y =
    centred(
      page,
      y,
      `Given at ${us ? 'Dover' : place === 'Ontario' ? 'Toronto' : 'the Registry'} on ${d(issued)}`,
      fonts.regular,
      11,
      inner,
    ) + 12;
  seal = picture(page, 100, y, 80, sealRaster(rng, us ? 'DE' : 'CR'));
  const s = signatureBlock(page, rng, {
    x: W - 250,
    y: y + 6,
    w: 140,
    fonts,
    name: personName(rng),
    title: registrar,
    size: 9,
  });
  sigs.push(s.region);
  q.text(
    'certificate_holder',
    ['Which company was incorporated?', 'Company name', 'Name of the incorporated company'],
    company,
    ev(1, company),
  );
  q.text(
    'certificate_no',
    ['What is the company number?', 'Registration number', 'Company no. on the certificate'],
    number,
    ev(1, number),
  );
  q.text(
    'issuing_body',
    ['Who issued the certificate?', 'Issuing authority', 'Which official certifies the incorporation?'],
    registrar,
    ev(1, registrar),
  );
  q.date(
    'issue_day',
    ['When was the company incorporated?', 'Date of incorporation', 'Date on the certificate'],
    isoOf(issued),
    ev(1, d(issued)),
  );
  q.date('valid_until', ['Until when is the certificate valid?', 'Expiry date', 'Valid until'], null, null);
  q.number(
    'share_capital',
    [
      'How many shares were issued on incorporation?',
      'Issued share capital (shares)',
      'Number of ordinary shares',
    ],
    showCapital ? capital : null,
    showCapital ? ev(1, fmtNumber(capital, [',', '.'], 0)) : null,
  );
  q.category(
    'incorporation_place',
    [
      'Where is the company registered?',
      'Place of registration',
      'In which jurisdiction was it incorporated?',
    ],
    PLACES,
    place,
    ev(1, `registered in ${place}`),
  );
  q.bool(
    'limited_by_shares',
    ['Is the company limited by shares?', 'Share company?', 'Does the company have share capital?'],
    byShares,
    ev(1, byShares ? 'limited by shares' : 'limited by guarantee'),
  );
  q.items(
    'first_directors',
    ['Who are the first directors?', 'List the directors.', 'Directors named on the certificate'],
    directors.map((x) => ev(1, x)),
  );
  q.image('seal', ['Where is the official seal?', 'Seal', 'Registry seal'], seal);
  q.images('signatures', ['All signatures', 'Signature of the registrar', 'Find every signature.'], sigs);
  q.text('certificate_title', TITLE_PROMPTS, at.title!.quote, at.title);
  return pdfDoc('certificate', seed, `incorporation-${landscape ? 'landscape' : 'portrait'}`, doc.save(), q);
}

export const certificate: Family = { name: 'certificate', generate };
