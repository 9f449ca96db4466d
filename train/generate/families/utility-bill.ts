/** Utility bills: account and service details, meter readings, charges, usage chart, amount due. */
import { type Column, Flow, field, footers, table, tableStyle } from '../layout.ts';
import { PAGE, PdfDoc } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { chartRaster } from '../raster.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addDays,
  address,
  amount,
  fmtNumber,
  isoOf,
  makeId,
  personName,
  phone,
  pickCountry,
  randomDay,
  round2,
  websiteFor,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { heightFor, label, letterhead, makeCtx, picture } from './common.ts';

const SERVICE_TYPES = ['Electricity', 'Natural gas', 'Water', 'Internet', 'Combined electricity and gas'];
const PRODUCERS = ['summary-box', 'statement', 'remittance'] as const;
const NAMES: Record<string, string[]> = {
  Electricity: ['Power & Light', 'Electric Cooperative', 'Energy'],
  'Natural gas': ['Gas Company', 'Gas & Heating', 'Gas Distribution'],
  Water: ['Water Authority', 'Water Services', 'Water & Sewer District'],
  Internet: ['Fibre Networks', 'Broadband', 'Cable & Internet'],
  'Combined electricity and gas': ['Energy', 'Utilities', 'Power & Gas'],
};
const UNITS: Record<string, string> = {
  Electricity: 'kWh',
  'Natural gas': 'therms',
  Water: 'gallons',
  Internet: 'GB',
  'Combined electricity and gas': 'kWh',
};

async function generate(seed: number) {
  const rng = makeRng(hashSeed('utility_bill', seed));
  const producer = rng.pick(PRODUCERS);
  const country = pickCountry(rng, { US: 6 });
  const ctx = makeCtx(rng, country);
  const service = rng.pick(SERVICE_TYPES);
  const provider = `${rng.pick(['Riverbend', 'Tri-County', 'Summit', 'Lakeland', 'Eastern Plains', 'Clearwater', 'Highland', 'Metro'])} ${rng.pick(NAMES[service]!)}`;
  const customer = personName(rng);
  const serviceAddr = address(rng, country);
  const mailing = rng.chance(0.3) ? address(rng, country) : serviceAddr;
  const account = makeId(rng, rng.pick(['####-####-##', '9#########', '9## ### ####', 'AC9######']));
  const billDay = randomDay(rng);
  const from = addDays(billDay, -rng.int(30, 36));
  const to = addDays(billDay, -rng.int(2, 5));
  const due = addDays(billDay, rng.pick([14, 21, 21, 25, 30]));
  const unit = UNITS[service]!;
  const usage =
    service === 'Water'
      ? rng.int(1200, 9000)
      : service === 'Internet'
        ? rng.int(80, 1400)
        : service === 'Natural gas'
          ? rng.int(15, 180)
          : rng.int(180, 1800);
  const prevRead = rng.int(10000, 90000);
  const autopay = rng.chance(0.5);
  const hasLateFee = rng.chance(0.5);
  const lateFee = amount(rng, 5, 40);
  const hasPrev = rng.chance(0.7);
  const prevBalance = hasPrev ? amount(rng, 30, 400) : 0;
  const payment = hasPrev ? -(rng.chance(0.8) ? prevBalance : amount(rng, 10, prevBalance)) : 0;
  const rate =
    service === 'Water' ? 0.006 : service === 'Internet' ? 0 : service === 'Natural gas' ? 1.1 : 0.14;
  const charges: [string, number][] = [
    [
      rng.pick(['Basic service charge', 'Standing charge', 'Customer charge', 'Monthly plan fee']),
      amount(rng, 8, 45),
    ],
    [
      service === 'Internet'
        ? rng.pick(['Fibre 500 plan', 'Broadband unlimited'])
        : rng.pick(['Energy charge', 'Supply charge', 'Usage charge']),
      round2(usage * rate || amount(rng, 30, 80)),
    ],
  ];
  for (const c of rng.sample(
    [
      'Delivery charge',
      'Environmental surcharge',
      'Equipment rental',
      'Meter fee',
      'Storm recovery fee',
      'Regulatory fee',
    ],
    rng.int(1, 3),
  ))
    charges.push([c, amount(rng, 1, 30)]);
  charges.push([rng.pick(['Taxes and fees', 'Sales tax', 'State utility tax']), amount(rng, 2, 25)]);
  const current = round2(charges.reduce((a, [, v]) => a + v, 0));
  const due$ = round2(prevBalance + payment + current);
  const showPrev = hasPrev;

  const doc = new PdfDoc();
  const size = rng.chance(0.7) ? PAGE.letter : PAGE.a4;
  const fs = rng.pick([8.5, 9, 9.5]);
  const flow = new Flow(doc, {
    size,
    margins: { top: 42, bottom: 80, left: 46, right: 46 },
    fonts: ctx.fonts,
    fontSize: fs,
  });
  const p = flow.page;
  const at: Record<string, Ev> = {};
  const graphics: RegionAnswer[] = [];
  const serviceTel = phone(rng, country);
  const head = letterhead(p, rng, {
    company: provider,
    lines: [`Customer service ${serviceTel}`, websiteFor(provider)],
    fonts: ctx.fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width * 0.55,
    withLogo: true,
    align: 'left',
  });
  at.provider = ev(1, provider);
  if (head.logo) graphics.push(head.logo);
  const m = (v: number) => ctx.amount(v);
  const dueLabel = label(rng, ['Amount due', 'Total amount due', 'Please pay', 'Balance due'], false);
  const byLabel = label(rng, ['Due date', 'Payment due by', 'Pay by', 'Due'], false);
  let y = flow.y;
  const bx = flow.left + flow.width * 0.6;
  const bw = flow.width * 0.4;
  if (producer === 'summary-box') {
    p.rect(bx, y, bw, 70, { stroke: 1, fill: 0.92 });
    p.text(bx + 10, y + 16, dueLabel, ctx.fonts.bold, fs);
    p.text(bx + bw - 10, y + 16, m(due$), ctx.fonts.bold, fs + 4, { align: 'right' });
    p.text(bx + 10, y + 36, byLabel, ctx.fonts.regular, fs);
    p.text(bx + bw - 10, y + 36, ctx.date(due), ctx.fonts.bold, fs, { align: 'right' });
    p.text(
      bx + 10,
      y + 56,
      label(rng, ['Account number', 'Account No.', 'Acct'], true),
      ctx.fonts.regular,
      fs,
    );
    p.text(bx + bw - 10, y + 56, account, ctx.fonts.regular, fs, { align: 'right' });
    at.due = ev(1, m(due$));
    at.by = ev(1, ctx.date(due));
    at.account = ev(1, account);
    y = Math.max(head.bottom, y + 78);
  } else {
    const title = rng.pick(['Your bill', 'UTILITY BILL', `${service} bill`, 'Statement of charges']);
    p.text(flow.right, y + 16, title, ctx.fonts.bold, 15, { align: 'right' });
    y = Math.max(head.bottom, y + 26);
  }
  y += 8;
  // Customer block and bill details.
  p.text(flow.left, y + fs, customer, ctx.fonts.bold, fs);
  let ly = y + fs * 1.4;
  for (const l of mailing.lines) {
    p.text(flow.left, ly + fs, l, ctx.fonts.regular, fs);
    ly += fs * 1.3;
  }
  at.customer = ev(1, customer);
  const details: [string, string, string | null][] = [];
  if (producer !== 'summary-box')
    details.push([
      label(rng, ['Account number', 'Account No.', 'Customer account'], false),
      account,
      'account',
    ]);
  details.push([
    label(rng, ['Bill date', 'Statement date', 'Date of bill'], false),
    ctx.date(billDay),
    'bill',
  ]);
  details.push([
    label(rng, ['Billing period', 'Service period', 'Period'], false),
    `${ctx.date(from)} - ${ctx.date(to)}`,
    null,
  ]);
  if (rng.chance(0.6)) details.push([label(rng, ['Service type', 'Service'], false), service, 'service']);
  details.push([
    label(rng, ['Service address', 'Supply address', 'Premises'], false),
    serviceAddr.lines[0]!,
    'service_street',
  ]);
  if (producer !== 'summary-box') details.push([byLabel, ctx.date(due), 'by']);
  let dy = y;
  const rx = flow.left + flow.width * 0.45;
  for (const [l, v, k] of details) {
    dy += field(p, rx, dy, flow.width * 0.55, l, v, 'right', {
      fonts: ctx.fonts,
      size: fs,
      labelWidth: flow.width * 0.22,
    });
    if (k) at[k] = ev(1, v);
  }
  if (rng.chance(0.4)) {
    // Many bills open like a letter, greeting the account holder by name.
    flow.y = Math.max(ly, dy) + 10;
    flow.para(`Dear ${rng.pick(['Mr.', 'Ms.', 'Dr.'])} ${customer.split(' ').at(-1)},`);
    flow.para(
      rng.pick([
        'Here is your latest bill. Please find a summary of your account below.',
        'This statement shows the charges for the period above and the amount now due.',
      ]),
    );
    ly = flow.y;
    dy = flow.y;
  }
  if (!at.service && rng.chance(0.5)) {
    // The service is still clear from the bill's wording.
    const phrase = `Thank you for choosing ${provider} for your ${service.toLowerCase()} service.`;
    flow.y = Math.max(ly, dy) + 10;
    flow.para(phrase);
    at.service = ev(1, `${service.toLowerCase()} service`);
  } else flow.y = Math.max(ly, dy) + 10;

  // Account summary.
  flow.line(rng.pick(['Account summary', 'Summary of your account', 'Bill summary']), {
    font: ctx.fonts.bold,
    size: fs + 1.5,
  });
  const sums: [string, number, string | null][] = [];
  if (showPrev) {
    sums.push([rng.pick(['Previous balance', 'Balance from last bill']), prevBalance, null]);
    sums.push([
      rng.pick(['Payment received - thank you', 'Payments', 'Payment received']),
      payment,
      'payment',
    ]);
  }
  sums.push([rng.pick(['Current charges', 'New charges', 'Charges this period']), current, null]);
  if (producer !== 'summary-box') sums.push([dueLabel, due$, 'due']);
  for (const [l, v, k] of sums) {
    flow.page.text(flow.left, flow.y + fs, l, k === 'due' ? ctx.fonts.bold : ctx.fonts.regular, fs);
    flow.page.text(
      flow.left + flow.width * 0.5,
      flow.y + fs,
      m(v),
      k === 'due' ? ctx.fonts.bold : ctx.fonts.regular,
      fs,
      { align: 'right' },
    );
    if (k) at[k] = ev(flow.pageNo, m(v));
    flow.y += fs * 1.6;
  }
  flow.space(8);

  // Meter reading and usage.
  const plainNum = (v: number) => fmtNumber(v, ctx.locale.separators, 0);
  if (service !== 'Internet') {
    const meterCols: Column[] = [
      { title: 'Meter', width: 18 },
      { title: 'Previous reading', width: 20, align: 'right' },
      { title: 'Current reading', width: 20, align: 'right' },
      { title: `Usage (${unit})`, width: 18, align: 'right' },
    ];
    const pages = table(
      flow,
      meterCols,
      [[makeId(rng, 'M9######'), plainNum(prevRead), plainNum(prevRead + usage), plainNum(usage)]],
      tableStyle(rng, ctx.fonts, fs),
    );
    at.usage = ev(pages[0]!, plainNum(usage));
  } else {
    const line = `Data used this period: ${plainNum(usage)} ${unit}`;
    at.usage = ev(flow.line(line), `${plainNum(usage)} ${unit}`);
  }
  // Charges.
  const plain = (v: number) => ctx.amount(v).replace(/^[^\d-(]+|[^\d)]+$/g, '');
  const chargePages = table(
    flow,
    [
      { title: rng.pick(['Charges', 'Description', 'Item']), width: 70 },
      { title: 'Amount', width: 30, align: 'right' },
    ],
    charges.map(([n, v]) => [n, plain(v)]),
    tableStyle(rng, ctx.fonts, fs),
    flow.left,
    flow.width * 0.6,
  );
  const chargeEv = charges.map(([n], i) => ev(chargePages[i]!, n));

  // Usage chart.
  let chart: RegionAnswer | null = null;
  if (rng.chance(0.8)) {
    const history = Array.from({ length: 12 }, () => Math.round(usage * (0.6 + rng.next() * 0.8)));
    const raster = chartRaster(rng, rng.chance(0.7) ? 'bar' : 'line', history);
    const w = flow.width * 0.55;
    const said = rng.pick(['Your usage over the last 12 months', `Monthly ${unit} history`, 'Usage history']);
    // Sometimes numbered as a figure, as reports number theirs; drawn apart from the main stream.
    const caption = makeRng(hashSeed('utility_bill:figure', seed)).chance(0.3) ? `Figure 1: ${said}` : said;
    flow.ensure(heightFor(w, raster) + 24);
    chart = picture(flow.page, flow.left, flow.y, w, raster, caption);
    flow.y += heightFor(w, raster) + 2;
    flow.line(caption, { size: fs - 0.5 });
    graphics.push(chart);
  }
  if (hasLateFee) {
    const lf = ctx.amount(lateFee);
    flow.para(`A late payment charge of ${lf} applies to balances not paid by the due date.`);
    at.late = ev(flow.pageNo, lf);
  }
  const autoLine = autopay
    ? rng.pick([
        `AutoPay: enrolled. ${m(due$)} will be debited on the due date.`,
        'You are enrolled in AutoPay, no action is needed.',
      ])
    : rng.pick([
        'AutoPay: not enrolled',
        'You are not enrolled in AutoPay. Sign up online to never miss a payment.',
      ]);
  flow.para(autoLine);
  at.auto = ev(flow.pageNo, autoLine.split('.')[0]!);

  if (producer === 'remittance') {
    flow.ensure(90);
    flow.y = Math.max(flow.y + 10, flow.bottom - 80);
    const pg = flow.page;
    for (let x = flow.left; x < flow.right; x += 8) pg.line(x, flow.y, x + 4, flow.y, 0.5);
    pg.text(
      flow.left,
      flow.y + 14,
      'Please return this portion with your payment.',
      ctx.fonts.regular,
      fs - 1,
      { color: 0.3 },
    );
    pg.text(flow.left, flow.y + 32, `${provider}`, ctx.fonts.bold, fs);
    pg.text(flow.left, flow.y + 46, `Account ${account}`, ctx.fonts.regular, fs);
    pg.text(flow.right, flow.y + 32, `${dueLabel}: ${m(due$)}`, ctx.fonts.bold, fs, { align: 'right' });
    pg.text(flow.right, flow.y + 46, `Amount enclosed: ________`, ctx.fonts.regular, fs, { align: 'right' });
    flow.y += 56;
  }
  footers(flow, rng, [`${provider} · ${address(rng, country).lines.join(', ')}`]);

  const q = new Questions();
  q.text(
    'service_phone',
    ['Which phone number reaches customer service?', 'Customer service phone', 'Telephone for enquiries'],
    serviceTel,
    ev(1, serviceTel),
  );
  q.text(
    'provider_website',
    ["What is the provider's website?", 'Web address', 'Website of the utility'],
    websiteFor(provider),
    ev(1, websiteFor(provider)),
  );
  q.text(
    'utility_account',
    ['What is the account number?', 'Utility account no.', 'Customer account number on the bill'],
    account,
    at.account,
  );
  q.text(
    'account_holder_name',
    ['Who is the bill addressed to?', 'Customer name', 'Name of the account holder'],
    customer,
    at.customer,
  );
  q.text(
    'provider',
    ['Which company sent this bill?', 'Utility provider', 'Supplier name'],
    provider,
    at.provider,
  );
  q.text(
    'service_street',
    [
      'What is the street address of the service?',
      'Supply address (street)',
      'Where is the service supplied?',
    ],
    serviceAddr.lines[0],
    at.service_street,
  );
  q.date('bill_day', ['When was the bill issued?', 'Bill date', 'Statement date'], isoOf(billDay), at.bill);
  q.date('pay_by', ['When is the payment due?', 'Due date', 'Pay by which date?'], isoOf(due), at.by);
  q.number('amount_due', ['How much is due?', 'Total amount due', 'Amount to pay'], due$, at.due);
  q.number(
    'last_payment',
    ['How much was the last payment received?', 'Payment received', 'Payments since the last bill'],
    showPrev ? payment : null,
    at.payment,
  );
  q.number(
    'usage_quantity',
    [`How many ${unit} were used?`, 'Consumption this period', 'Usage amount'],
    usage,
    at.usage,
  );
  q.category(
    'service_type',
    ['What service is billed?', 'Type of utility', 'Which utility does this bill cover?'],
    SERVICE_TYPES,
    service,
    at.service,
  );
  q.number(
    'late_charge',
    ['What is the late payment charge?', 'Late fee', 'Penalty if the bill is paid late'],
    hasLateFee ? lateFee : null,
    at.late,
  );
  q.bool(
    'autopay',
    ['Is the customer enrolled in AutoPay?', 'AutoPay on?', 'Will the bill be paid automatically?'],
    autopay,
    at.auto,
  );
  q.items(
    'charge_lines',
    ['List the charges on the bill.', 'Which charges make up the bill?', 'Charge descriptions'],
    chargeEv,
  );
  q.image('usage_chart', ['Where is the usage chart?', 'Consumption graph', 'Chart of usage history'], chart);
  q.images(
    'bill_graphics',
    ['All logos and charts', 'Every graphic on the bill', 'Pictures on this bill'],
    graphics,
  );
  return pdfDoc('utility_bill', seed, producer, doc.save(), q);
}

export const utilityBill: Family = { name: 'utility_bill', generate };
