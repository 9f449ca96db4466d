/** Payslips: employer and employee details, pay period, earnings, deductions and net pay. */
import {
  type Column,
  type FieldStyle,
  Flow,
  field,
  fieldHeight,
  footers,
  table,
  tableStyle,
} from '../layout.ts';
import { PAGE, PdfDoc } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { stampRaster } from '../raster.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addDays,
  address,
  amount,
  isoOf,
  makeId,
  organisationName,
  personName,
  pickCountry,
  randomDay,
  round2,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { heightFor, label, letterhead, makeCtx, picture } from './common.ts';

const FREQUENCIES = ['Weekly', 'Biweekly', 'Semi-monthly', 'Monthly'];
const PRODUCERS = ['side-by-side', 'stacked', 'boxed'] as const;
const DEPARTMENTS = [
  'Finance',
  'Operations',
  'Engineering',
  'Sales',
  'Customer Support',
  'Warehouse',
  'Marketing',
  'Facilities',
];
const JOBS = [
  'Accountant',
  'Warehouse Associate',
  'Software Developer',
  'Sales Representative',
  'Support Specialist',
  'Technician',
  'Team Lead',
  'Analyst',
];

async function generate(seed: number) {
  const rng = makeRng(hashSeed('payslip', seed));
  const producer = rng.pick(PRODUCERS);
  const country = pickCountry(rng, { US: 4, UK: 3 });
  const ctx = makeCtx(rng, country);
  const employer = organisationName(rng, country);
  const employee = personName(rng);
  const employeeId = rng.chance(0.7) ? makeId(rng, rng.pick(['E9####', '9#####', 'EMP-9###'])) : null;
  const freq = rng.pick(FREQUENCIES);
  const showFreq = rng.chance(0.75);
  const len = freq === 'Weekly' ? 6 : freq === 'Biweekly' ? 13 : freq === 'Semi-monthly' ? 14 : 29;
  const start = randomDay(rng);
  const end = addDays(start, len);
  const payDay = addDays(end, rng.int(0, 5));
  const direct = rng.chance(0.5);
  const us = country === 'US' || country === 'CA';
  const uk = country === 'UK' || country === 'IE';

  // Earnings and deductions.
  const hourly = rng.chance(0.4);
  const hours = freq === 'Weekly' ? 40 : freq === 'Monthly' ? 160 : 80;
  const rate = amount(rng, 14, 60);
  const base = hourly
    ? round2(hours * rate)
    : amount(rng, 900, 9000) * (freq === 'Monthly' ? 1 : freq === 'Weekly' ? 0.25 : 0.5);
  const earnings: { name: string; value: number; units: string }[] = [
    {
      name: hourly
        ? rng.pick(['Regular pay', 'Regular hours', 'Basic pay'])
        : rng.pick(['Basic salary', 'Salary', 'Base pay']),
      value: round2(base),
      units: hourly ? `${hours} @ ${rate.toFixed(2)}` : '',
    },
  ];
  for (const extra of rng.sample(
    ['Overtime', 'Bonus', 'Commission', 'Holiday pay', 'Shift allowance', 'Travel allowance'],
    rng.int(0, 3),
  )) {
    earnings.push({
      name: extra,
      value: amount(rng, 40, 900),
      units: extra === 'Overtime' ? `${rng.int(2, 12)} hrs` : '',
    });
  }
  const gross = round2(earnings.reduce((a, e) => a + e.value, 0));
  const taxName = us
    ? 'Federal income tax'
    : uk
      ? 'PAYE tax'
      : country === 'DE'
        ? 'Lohnsteuer'
        : rng.pick(['Income tax', 'Withholding tax']);
  const showTax = rng.chance(0.8);
  const tax = round2(gross * (0.1 + rng.next() * 0.15));
  const deductions: { name: string; value: number }[] = [];
  if (showTax) deductions.push({ name: taxName, value: tax });
  const others = us
    ? ['Social Security', 'Medicare', '401(k)', 'Health insurance', 'State income tax']
    : uk
      ? ['National Insurance', 'Pension', 'Student loan', 'Union dues']
      : ['Social insurance', 'Pension', 'Health insurance', 'Solidarity surcharge'];
  for (const d of rng.sample(others, rng.int(1, 3)))
    deductions.push({ name: d, value: round2(gross * (0.01 + rng.next() * 0.07)) });
  const totalDed = round2(deductions.reduce((a, d) => a + d.value, 0));
  const net = round2(gross - totalDed);

  const doc = new PdfDoc();
  const size = rng.chance(0.5) ? PAGE.a4 : PAGE.letter;
  const fs = rng.pick([8.5, 9, 9.5]);
  const flow = new Flow(doc, {
    size,
    margins: { top: 44, bottom: 80, left: 50, right: 50 },
    fonts: ctx.fonts,
    fontSize: fs,
  });
  const p = flow.page;
  const at: Record<string, Ev> = {};
  const graphics: RegionAnswer[] = [];
  const eaddr = address(rng, country);
  const head = letterhead(p, rng, {
    company: employer,
    lines: [eaddr.lines.join(', ')],
    fonts: ctx.fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width * 0.62,
    withLogo: rng.chance(0.85),
    align: 'left',
  });
  at.employer = ev(1, employer);
  if (head.logo) graphics.push(head.logo);
  const title = rng.pick(['PAYSLIP', 'Pay Statement', 'Earnings Statement', 'Salary slip', 'Pay Advice']);
  p.text(flow.right, flow.y + 16, title, ctx.fonts.bold, 16, { align: 'right' });
  p.text(flow.right, flow.y + 30, 'Private & Confidential', ctx.fonts.regular, fs - 1, {
    align: 'right',
    color: 0.4,
  });
  const y = Math.max(head.bottom, flow.y + 40) + 10;

  const fields: [string, string, string | null][] = [
    [label(rng, ['Employee', 'Employee name', 'Name'], false), employee, 'employee'],
    ...(employeeId
      ? [
          [label(rng, ['Employee ID', 'Staff No.', 'Employee number'], false), employeeId, 'id'] as [
            string,
            string,
            string,
          ],
        ]
      : []),
    [label(rng, ['Department', 'Dept.', 'Cost centre'], false), rng.pick(DEPARTMENTS), null],
    [label(rng, ['Job title', 'Position'], false), rng.pick(JOBS), null],
    [label(rng, ['Period start', 'Pay period from', 'Period beginning'], false), ctx.date(start), 'start'],
    [label(rng, ['Period end', 'Pay period to', 'Period ending'], false), ctx.date(end), null],
    [label(rng, ['Pay date', 'Payment date', 'Paid on'], false), ctx.date(payDay), 'payday'],
    ...(showFreq
      ? [
          [label(rng, ['Pay frequency', 'Pay cycle', 'Frequency'], false), freq, 'freq'] as [
            string,
            string,
            string,
          ],
        ]
      : []),
    ...(uk ? [['Tax code', `${rng.int(1000, 1300)}L`, null] as [string, string, null]] : []),
    ...(us ? [['SSN', `XXX-XX-${makeId(rng, '####')}`, null] as [string, string, null]] : []),
  ];
  const style: FieldStyle = producer === 'boxed' ? 'boxCorner' : producer === 'stacked' ? 'inline' : 'right';
  const perRow = style === 'boxCorner' ? 3 : 2;
  const cw = (flow.width - (perRow - 1) * 10) / perRow;
  const fh = fieldHeight(style, fs) + 3;
  fields.forEach(([l, v, k], i) => {
    field(p, flow.left + (i % perRow) * (cw + 10), y + Math.floor(i / perRow) * fh, cw, l, v, style, {
      fonts: ctx.fonts,
      size: fs,
      ruled: true,
      labelWidth: cw * 0.45,
    });
    if (k) at[k] = ev(1, v);
  });
  flow.y = y + Math.ceil(fields.length / perRow) * fh + 14;

  // Earnings and deductions.
  const plain = (v: number) => ctx.amount(v).replace(/^[^\d-(]+|[^\d)]+$/g, '');
  const ytd = rng.chance(0.6);
  const factor = rng.int(2, 11);
  const ts = tableStyle(rng, ctx.fonts, fs);
  const earnCols: Column[] = [
    { title: rng.pick(['Earnings', 'Payments', 'Description']), width: 40 },
    { title: rng.pick(['Hours/Units', 'Units', 'Rate']), width: 25, align: 'right' },
    { title: rng.pick(['Amount', 'Current', 'This period']), width: 20, align: 'right' },
    ...(ytd ? [{ title: 'YTD', width: 18, align: 'right' as const }] : []),
  ];
  const earnRows = earnings.map((e) => [
    e.name,
    e.units,
    plain(e.value),
    ...(ytd ? [plain(e.value * factor)] : []),
  ]);
  const dedCols: Column[] = [
    { title: rng.pick(['Deductions', 'Taxes & deductions', 'Withholdings']), width: 45 },
    { title: rng.pick(['Amount', 'Current', 'This period']), width: 20, align: 'right' },
    ...(ytd ? [{ title: 'YTD', width: 18, align: 'right' as const }] : []),
  ];
  const dedRows = deductions.map((d) => [d.name, plain(d.value), ...(ytd ? [plain(d.value * factor)] : [])]);
  let earnPages: number[];
  let dedPages: number[];
  if (producer === 'side-by-side') {
    const y0 = flow.y;
    const w = (flow.width - 14) / 2;
    earnPages = table(flow, earnCols, earnRows, ts, flow.left, w);
    const y1 = flow.y;
    flow.y = y0;
    dedPages = table(flow, dedCols, dedRows, ts, flow.left + w + 14, w);
    flow.y = Math.max(y1, flow.y);
  } else {
    earnPages = table(flow, earnCols, earnRows, ts);
    dedPages = table(flow, dedCols, dedRows, ts);
  }
  const earnEv = earnings.map((e, i) => ev(earnPages[i]!, e.name));
  if (showTax) at.tax = ev(dedPages[0]!, plain(tax));
  flow.space(6);

  // Summary.
  const summary: [string, number, string | null][] = [
    [label(rng, ['Gross pay', 'Total earnings', 'Gross'], false), gross, 'gross'],
    [label(rng, ['Total deductions', 'Deductions'], false), totalDed, null],
    [label(rng, ['Net pay', 'NET PAY', 'Take-home pay', 'Amount paid'], false), net, 'net'],
  ];
  flow.ensure(60);
  if (producer === 'boxed') {
    const bw = (flow.width - 20) / 3;
    summary.forEach(([l, v, k], i) => {
      const x = flow.left + i * (bw + 10);
      flow.page.rect(x, flow.y, bw, 36, { stroke: 0.8, fill: k === 'net' ? 0.9 : null });
      flow.page.text(x + bw / 2, flow.y + 12, l, ctx.fonts.regular, fs - 1, { align: 'center', color: 0.3 });
      flow.page.text(x + bw / 2, flow.y + 29, ctx.amount(v), ctx.fonts.bold, fs + 3, { align: 'center' });
      if (k) at[k] = ev(flow.pageNo, ctx.amount(v));
    });
    flow.y += 46;
  } else {
    for (const [l, v, k] of summary) {
      flow.page.text(
        flow.left + flow.width * 0.55,
        flow.y + fs,
        l,
        k === 'net' ? ctx.fonts.bold : ctx.fonts.regular,
        fs + (k === 'net' ? 1 : 0),
      );
      flow.page.text(
        flow.right,
        flow.y + fs,
        ctx.amount(v),
        k === 'net' ? ctx.fonts.bold : ctx.fonts.regular,
        fs + (k === 'net' ? 1 : 0),
        { align: 'right' },
      );
      if (k) at[k] = ev(flow.pageNo, ctx.amount(v));
      flow.y += fs * 1.8;
    }
  }
  flow.space(6);
  const depositAcct = makeId(rng, '####');
  const payLine = direct
    ? `${rng.pick(['Payment method', 'Paid by'])}: ${rng.pick(['Direct deposit', 'Bank transfer (direct deposit)', 'BACS direct credit'])} to account ****${depositAcct}`
    : `${rng.pick(['Payment method', 'Paid by'])}: ${rng.pick(['Cheque', 'Check', 'Paper check'])} No. ${makeId(rng, '00####')}`;
  flow.line(payLine);
  at.direct = ev(flow.pageNo, payLine);
  if (direct) at.acct = ev(flow.pageNo, depositAcct);
  if (rng.chance(0.4)) {
    const stamp = stampRaster(rng, rng.pick(['PAID', 'PROCESSED', 'PAYROLL']));
    flow.ensure(heightFor(90, stamp));
    graphics.push(picture(flow.page, flow.right - 100, flow.y, 90, stamp));
    flow.y += heightFor(90, stamp);
  }
  flow.para(
    rng.pick([
      'Please retain this statement for your records. Queries should be raised with the payroll team within 14 days.',
      'This statement is confidential. Report any discrepancies to HR.',
      `Your annual leave balance is ${rng.int(2, 25)} days.`,
    ]),
    { size: fs - 0.5 },
  );
  footers(flow, rng, [`${employer} · Payroll Department`]);

  const q = new Questions();
  q.text(
    'employee_name',
    [
      'Who is this payslip for?',
      'Employee name',
      'Name of the employee being paid',
      'Which person is paid (the employee, not the employer)?',
    ],
    employee,
    at.employee,
  );
  q.text(
    'employer_name',
    ['Which company pays this salary?', 'Employer', 'Who is the employer?'],
    employer,
    at.employer,
  );
  q.text(
    'employee_ref',
    ["What is the employee's ID number?", 'Employee number', 'Staff ID'],
    employeeId,
    at.id,
  );
  q.stated(
    'employee_ref_given',
    [
      'Does the payslip show an employee ID number?',
      'Is an employee number given?',
      'Is there a staff ID on the payslip?',
    ],
    employeeId,
    at.id,
  );
  q.date(
    'pay_day',
    ['When is the pay date?', 'Payment date', 'On what date was the employee paid?'],
    isoOf(payDay),
    at.payday,
  );
  q.date(
    'pay_period_start',
    ['When does the pay period start?', 'Period start date', 'First day of the pay period'],
    isoOf(start),
    at.start,
  );
  q.number(
    'gross_pay',
    ['What is the gross pay?', 'Total earnings before deductions', 'Gross amount'],
    gross,
    at.gross,
  );
  q.number(
    'net_pay',
    ['What is the net pay?', 'Take-home amount', 'How much was actually paid out?'],
    net,
    at.net,
  );
  q.number(
    'income_tax',
    ['How much income tax was withheld?', 'Tax deducted this period', 'Income tax amount'],
    showTax ? tax : null,
    at.tax,
  );
  q.category(
    'pay_frequency',
    ['How often is the employee paid?', 'Pay frequency', 'Pay cycle'],
    FREQUENCIES,
    freq,
    at.freq,
  );
  q.bool(
    'direct_deposit',
    [
      'Was the pay deposited directly into a bank account?',
      'Paid by direct deposit?',
      'Is this a direct deposit payment?',
    ],
    direct,
    at.direct,
  );
  q.text(
    'deposit_account',
    [
      'Into which account (last four digits) was the pay deposited?',
      'Bank account last 4',
      'Account the net pay went to',
    ],
    direct ? depositAcct : null,
    at.acct,
  );
  q.items(
    'earnings_items',
    ['List the earnings components.', 'Which types of earnings are paid?', 'Earnings lines'],
    earnEv,
  );
  q.image(
    'employer_logo',
    ["Where is the employer's logo?", 'Company logo', 'Logo on the payslip'],
    head.logo,
  );
  q.images(
    'payslip_graphics',
    ['All logos and stamps', 'Every picture on the payslip', 'Graphics on this pay statement'],
    graphics,
  );
  return pdfDoc('payslip', seed, producer, doc.save(), q);
}

export const payslip: Family = { name: 'payslip', generate };
