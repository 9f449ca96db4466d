/**
 * Office forms whose values sit inside drawn boxes (label in the box's corner, above the box,
 * or in a shaded cell to its left): expense claims, equipment requests, vendor set-up and
 * leave requests, with checkboxes, a grid of lines and signature boxes.
 */
import { type FieldStyle, Flow, type Fonts, field, fieldHeight, footers } from '../layout.ts';
import { PAGE, PdfDoc, type PdfPage } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { photoRaster } from '../raster.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addDays,
  amount,
  emailFor,
  GOODS,
  isoOf,
  makeId,
  organisationName,
  personName,
  pickCountry,
  randomDay,
  round2,
  SERVICES,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { checkList, letterhead, makeCtx, picture, signatureBlock } from './common.ts';

const DEPARTMENTS = ['Finance', 'Operations', 'Engineering', 'Sales', 'Human Resources', 'Marketing'];
const PRODUCERS = ['corner', 'above', 'grid'] as const;
const KINDS = [
  {
    category: 'Expense claim',
    title: 'Expense Reimbursement Claim',
    amountLabel: 'Total claimed',
    flag: 'Advance already received',
    lines: 'Expenses',
  },
  {
    category: 'Equipment request',
    title: 'Equipment Request Form',
    amountLabel: 'Estimated cost',
    flag: 'Urgent request',
    lines: 'Items requested',
  },
  {
    category: 'Purchase requisition',
    title: 'Purchase Requisition',
    amountLabel: 'Total estimated amount',
    flag: 'Budgeted item',
    lines: 'Items required',
  },
  {
    category: 'Training application',
    title: 'Training Course Application',
    amountLabel: 'Course fee',
    flag: 'Course required for current role',
    lines: 'Courses',
  },
];

/** What a form may be, asked as a category: some titles name it, others describe it. */
const FORM_KINDS = [...KINDS.map((k) => k.category), 'Leave request', 'Vendor setup'];

/** Why a request is made, as people write it in the form's free-text box. */
const PURPOSES = [
  'Client workshop at the regional office',
  'Replacement for a failed laptop',
  'Annual sales conference travel',
  'Setup for a new starter in the team',
  'Restock of warehouse consumables',
  'Certification needed for the audit role',
  'Site visit to inspect supplier quality',
  'Upgrade of meeting room video equipment',
  'Training for the new payroll system',
  'Trade fair stand and materials',
  'Backup drives for the quarterly archive',
  'Safety equipment for the field crew',
];

/** Other yes/no questions such forms ask, printed beside the one asked about. */
const OTHER_FLAGS = [
  'Manager informed',
  'Receipts attached',
  'Travel required',
  'Recurring cost',
  'Previously requested',
];

/** How a form sets its yes/no boxes: beside the question, or on the line under it (asked with "?" or captioned with ":"). */
type BoxPlacement = 'beside' | 'below' | 'below-asked';

/**
 * A Yes/No pair of checkboxes, drawn or typed; returns the text to cite for the ticked one and
 * the height it took.
 */
function checkboxes(
  page: PdfPage,
  x: number,
  y: number,
  fonts: Fonts,
  size: number,
  question: string,
  yes: boolean,
  typed: boolean,
  placement: BoxPlacement,
): { quote: string; height: number } {
  const beside = placement === 'beside';
  const [, end] = page.text(
    x,
    y + size,
    `${question}${placement === 'below-asked' ? '?' : ':'}`,
    fonts.bold,
    size,
  );
  let cx = beside ? end + 10 : x + 14;
  if (!beside) y += size * 1.6;
  let quote = '';
  for (const [name, on] of [
    ['Yes', yes],
    ['No', !yes],
  ] as const) {
    if (typed) {
      const t = `[${on ? 'X' : ' '}] ${name}`;
      const [, e] = page.text(cx, y + size, t, fonts.regular, size);
      if (on) quote = `[X] ${name}`;
      cx = e + 14;
    } else {
      page.rect(cx, y + 1, size, size, { stroke: 0.7 });
      if (on) page.text(cx + size / 2, y + size * 0.9, 'X', fonts.bold, size * 0.95, { align: 'center' });
      const [, e] = page.text(cx + size + 4, y + size, name, fonts.regular, size);
      if (on) quote = `X ${name}`;
      cx = e + 14;
    }
  }
  return { quote, height: size * (beside ? 2.4 : 4) };
}

async function generate(seed: number) {
  const rng = makeRng(hashSeed('form_boxes', seed));
  const producer = rng.pick(PRODUCERS);
  const kind = rng.pick(KINDS);
  const country = pickCountry(rng, { US: 5, UK: 3 });
  const ctx = makeCtx(rng, country);
  const org = organisationName(rng, country);
  const applicant = personName(rng);
  const email = rng.chance(0.7) ? emailFor(applicant, org) : null;
  const approver = rng.chance(0.65) ? personName(rng, [applicant]) : null;
  const dept = rng.pick(DEPARTMENTS);
  const submitted = randomDay(rng);
  const needed = addDays(submitted, rng.int(5, 40));
  const showNeeded = rng.chance(0.6);
  const formRef = makeId(
    rng,
    rng.pick(['F-9#####', '{Y}-9###'.replace('{Y}', String(submitted.y)), 'REQ9#####']),
  );
  const flag = rng.chance(0.5);
  const typedBoxes = rng.chance(0.5);
  // Drawn apart from the main stream so the other draws stay as they were.
  const deptTicked = hashSeed('form-boxes:department-ticks', seed) % 5 < 2;
  const pool = kind.title.startsWith('Training')
    ? SERVICES
    : kind.title.startsWith('Expense')
      ? SERVICES
      : GOODS;
  const items = rng
    .sample(pool, rng.int(2, 6))
    .map((p) => ({ name: p.name, value: amount(rng, p.price[0] * 2, p.price[1] * 3) }));
  const total = round2(items.reduce((a, i) => a + i.value, 0));

  const doc = new PdfDoc();
  const size = rng.chance(0.5) ? PAGE.letter : PAGE.a4;
  const fs = rng.pick([9, 9.5, 10]);
  const flow = new Flow(doc, {
    size,
    margins: { top: 40, bottom: 76, left: 46, right: 46 },
    fonts: ctx.fonts,
    fontSize: fs,
  });
  const p = flow.page;
  const at: Record<string, Ev> = {};
  const head = letterhead(p, rng, {
    company: org,
    lines: [],
    fonts: ctx.fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width * 0.6,
    withLogo: rng.chance(0.6),
    align: 'left',
  });
  p.text(
    flow.right,
    flow.y + 10,
    `Form ${makeId(rng, 'AA-##')} (rev. ${submitted.y - rng.int(1, 4)})`,
    ctx.fonts.regular,
    7.5,
    { align: 'right', color: 0.4 },
  );
  const refLabel = rng.pick(['Reference No.', 'Form No.', 'Request ID', 'Claim ref.']);
  p.text(flow.right, flow.y + 24, `${refLabel}: ${formRef}`, ctx.fonts.bold, fs, { align: 'right' });
  at.ref = ev(1, formRef);
  let y = Math.max(head.bottom, flow.y + 34) + 6;
  p.text(flow.left + flow.width / 2, y + 16, kind.title.toUpperCase(), ctx.fonts.bold, 15, {
    align: 'center',
  });
  at.kind = ev(1, kind.title.toUpperCase());
  y += 30;

  const style: FieldStyle = producer === 'corner' ? 'boxCorner' : producer === 'above' ? 'boxAbove' : 'right';
  const fh = fieldHeight(style, fs) + 4;
  const W = flow.width;
  const section = (t: string) => {
    p.rect(flow.left, y, W, fs * 1.7, { stroke: 0, fill: 0.85 });
    p.text(flow.left + 4, y + fs * 1.2, t, ctx.fonts.bold, fs);
    y += fs * 1.7 + 6;
  };
  /** A row of fields with shares of the width. */
  let rowW = W;
  const row = (cells: [string, string, number, string | null][]) => {
    let x = flow.left;
    const gap = 8;
    const total = cells.reduce((a, c) => a + c[2], 0);
    for (const [l, v, share, key] of cells) {
      const w = (rowW - gap * (cells.length - 1)) * (share / total);
      field(p, x, y, w, l, v, style, {
        fonts: ctx.fonts,
        size: fs,
        ruled: true,
        labelWidth: Math.min(w * 0.45, 110),
      });
      if (key && v) at[key] = ev(1, v);
      x += w + gap;
    }
    y += fh;
  };
  section(rng.pick(['Section A - Applicant details', '1. Your details', 'APPLICANT']));
  // A passport photo box beside the applicant fields on some forms.
  let photo: RegionAnswer | null = null;
  if (rng.chance(0.4)) {
    const pw = 66;
    const ph = (pw * 115) / 90;
    const px = flow.right - pw;
    p.text(px, y + 7, rng.pick(['Photo', 'Affix photo', 'Passport photo']), ctx.fonts.regular, 7, {
      color: 0.35,
    });
    p.rect(px - 2, y + 10, pw + 4, ph + 4, { stroke: 0.6 });
    photo = picture(p, px, y + 12, pw, photoRaster(rng), null);
    rowW = W - pw - 14;
  }
  row([
    [rng.pick(['Full name', 'Employee name', 'Name of applicant']), applicant, 3, 'applicant'],
    [rng.pick(['Employee No.', 'Staff ID']), makeId(rng, '9#####'), 2, null],
  ]);
  if (deptTicked) {
    row([
      [rng.pick(['E-mail', 'Email address', 'Work email']), email ?? '', 3, 'email'],
      [rng.pick(['Phone', 'Mobile']), `0${rng.int(100, 999)} ${rng.int(100000, 999999)}`, 2, null],
    ]);
    // The department as a row of tick boxes rather than a written field.
    p.text(
      flow.left,
      y + fs,
      rng.pick(['Department (tick one):', 'Division:', 'Your department:']),
      ctx.fonts.bold,
      fs,
    );
    y += fs * 1.6;
    const list = checkList(p, flow.left + 10, y, rowW - 10, ctx.fonts, fs, DEPARTMENTS, dept, typedBoxes);
    at.dept = ev(1, list.quote);
    y = list.bottom + 4;
  } else {
    row([
      [rng.pick(['Department', 'Division', 'Cost centre']), dept, 2, 'dept'],
      [rng.pick(['E-mail', 'Email address', 'Work email']), email ?? '', 3, 'email'],
    ]);
  }
  row([
    [rng.pick(['Date submitted', 'Date of request', 'Submission date']), ctx.date(submitted), 1, 'submitted'],
    [rng.pick(['Date required', 'Needed by', 'Start date']), showNeeded ? ctx.date(needed) : '', 1, 'needed'],
    [rng.pick(['Phone ext.', 'Extension']), String(rng.int(100, 9999)), 1, null],
  ]);
  if (photo) y = Math.max(y, photo.box[3] * p.height + 6);
  rowW = W;
  // A free-text reason on most forms; drawn apart from the main stream so the other draws stay.
  const why = makeRng(hashSeed('form-boxes:purpose', seed));
  const purpose = why.chance(0.75) ? why.pick(PURPOSES) : null;
  if (purpose) {
    row([
      [
        why.pick(['Purpose of request', 'Reason for request', 'Business justification']),
        purpose,
        1,
        'purpose',
      ],
    ]);
  }
  y += 4;
  section(rng.pick([`Section B - ${kind.lines}`, `2. ${kind.lines}`, kind.lines.toUpperCase()]));
  // Lines grid: numbered rows of boxes.
  const itemEv: Ev[] = [];
  const descW = W * 0.72;
  const rowH = fs * 1.9;
  p.text(flow.left + 4, y + fs, 'Description', ctx.fonts.bold, fs - 0.5);
  p.text(flow.right - 4, y + fs, 'Amount', ctx.fonts.bold, fs - 0.5, { align: 'right' });
  y += fs * 1.5;
  const plain = (v: number) => ctx.amount(v).replace(/^[^\d-(]+|[^\d)]+$/g, '');
  const rows = Math.max(items.length + rng.int(0, 2), 4);
  for (let i = 0; i < rows; i++) {
    p.rect(flow.left, y, descW, rowH, { stroke: 0.5 });
    p.rect(flow.left + descW, y, W - descW, rowH, { stroke: 0.5 });
    const it = items[i];
    if (it) {
      p.text(flow.left + 5, y + rowH * 0.68, it.name, ctx.fonts.regular, fs);
      p.text(flow.right - 5, y + rowH * 0.68, plain(it.value), ctx.fonts.regular, fs, { align: 'right' });
      itemEv.push(ev(1, it.name));
    }
    y += rowH;
  }
  y += 6;
  row([
    [kind.amountLabel, ctx.amount(total), 1, 'total'],
    [rng.pick(['Project code', 'Budget line', 'GL account']), makeId(rng, '9###-##'), 1, null],
  ]);
  // Often a second yes/no question beside it, mostly answered the other way: the answer is read
  // from the asked question's own boxes, not from any ticked box. Drawn apart from the main stream.
  const other = makeRng(hashSeed('form-boxes:second-flag', seed));
  const second = other.chance(0.6)
    ? {
        question: other.pick(OTHER_FLAGS.filter((f) => f !== kind.flag)),
        yes: other.chance(0.75) ? !flag : flag,
        before: other.chance(0.5),
      }
    : null;
  // Boxes beside their question or on the line under it; drawn apart from the main stream.
  const placement = makeRng(hashSeed('form-boxes:placement', seed)).pick<BoxPlacement>([
    'beside',
    'beside',
    'below',
    'below-asked',
  ]);
  const ask = (question: string, yes: boolean) => {
    const boxes = checkboxes(p, flow.left, y, ctx.fonts, fs, question, yes, typedBoxes, placement);
    y += boxes.height;
    return boxes.quote;
  };
  if (second?.before) ask(second.question, second.yes);
  at.flag = ev(1, ask(kind.flag, flag));
  if (second && !second.before) ask(second.question, second.yes);

  section(rng.pick(['Section C - Declaration and approval', '3. Sign-off', 'AUTHORISATION']));
  flow.y = y;
  p.text(
    flow.left,
    y + fs,
    'I confirm that the information given on this form is complete and correct.',
    ctx.fonts.regular,
    fs - 0.5,
  );
  y += fs * 2;
  const sigs: RegionAnswer[] = [];
  const colW = (W - 20) / 2;
  p.rect(flow.left, y, colW, 112, { stroke: 0.6 });
  p.rect(flow.left + colW + 20, y, colW, 112, { stroke: 0.6 });
  p.text(
    flow.left + 4,
    y + 9,
    rng.pick(['Signature of applicant', 'Applicant signature']),
    ctx.fonts.regular,
    7,
    { color: 0.3 },
  );
  const a = signatureBlock(p, rng, {
    x: flow.left + 10,
    y: y + 14,
    w: 140,
    fonts: ctx.fonts,
    name: applicant,
    size: fs - 1,
  });
  sigs.push(a.region);
  const ax = flow.left + colW + 20;
  p.text(
    ax + 4,
    y + 9,
    rng.pick(['Approved by (name and signature)', 'Manager approval']),
    ctx.fonts.regular,
    7,
    { color: 0.3 },
  );
  if (approver) {
    const b = signatureBlock(p, rng, {
      x: ax + 10,
      y: y + 14,
      w: 140,
      fonts: ctx.fonts,
      name: approver,
      size: fs - 1,
    });
    sigs.push(b.region);
    at.approver = ev(1, approver);
  } else {
    p.text(ax + 10, y + 100, 'Name: ______________________', ctx.fonts.regular, fs - 1, { color: 0.4 });
  }
  y += 120;
  flow.y = y;
  footers(flow, rng, [`${org} · ${kind.title} · For internal use only`]);

  const q = new Questions();
  q.text(
    'applicant',
    ['Who filled in this form?', 'Applicant name', 'Name of the person submitting the form'],
    applicant,
    at.applicant,
  );
  q.text(
    'applicant_email',
    ["What is the applicant's email address?", 'Email', 'Contact e-mail given on the form'],
    email,
    at.email,
  );
  q.category(
    'form_kind',
    ['What kind of form is this?', 'Form type', 'Which request does this form make?'],
    FORM_KINDS,
    kind.category,
    at.kind,
  );
  q.text(
    'request_purpose',
    ['What is the purpose of the request?', 'Reason for request', 'Why is the request made?'],
    purpose,
    at.purpose,
  );
  q.text(
    'approver_name',
    ['Who approved the request?', 'Approving manager', 'Name of the approver'],
    approver,
    at.approver,
  );
  q.text(
    'form_reference',
    ['What is the reference number of this form?', 'Form reference', 'Request ID'],
    formRef,
    at.ref,
  );
  q.date(
    'submitted_day',
    ['When was the form submitted?', 'Date of submission', 'Submission date'],
    isoOf(submitted),
    at.submitted,
  );
  q.date(
    'needed_by',
    ['By when is it needed?', 'Date required', 'Requested completion or start date'],
    isoOf(needed),
    at.needed,
  );
  q.number(
    'requested_total',
    ['What total amount is requested?', kind.amountLabel, 'Total on the form'],
    total,
    at.total,
  );
  q.category(
    'department',
    ['Which department is the applicant in?', 'Department', 'Division of the requester'],
    DEPARTMENTS,
    dept,
    at.dept,
  );
  q.bool(
    'flag_checked',
    [
      `${kind.flag}?`,
      `Is "${kind.flag}" ticked yes?`,
      `Does the form say yes to: ${kind.flag.toLowerCase()}?`,
    ],
    flag,
    at.flag,
  );
  q.items(
    'requested_lines',
    ['List the lines entered on the form.', `${kind.lines} listed`, 'Descriptions entered in the table'],
    itemEv,
  );
  if (photo) {
    q.image(
      'applicant_photo',
      ["Where is the applicant's photo?", 'Passport photo', 'Photograph of the applicant'],
      photo,
    );
  }
  q.image(
    'applicant_signature',
    [
      "Where is the applicant's signature?",
      'Applicant signature',
      'Signature of the person who submitted the form',
    ],
    sigs[0],
  );
  q.images(
    'all_signatures',
    ['All signatures on the form', 'Find every signature.', 'Signatures present'],
    sigs,
  );
  return pdfDoc('form_boxes', seed, `${producer}${typedBoxes ? '+typed' : ''}`, doc.save(), q);
}

export const formBoxes: Family = { name: 'form_boxes', generate };
