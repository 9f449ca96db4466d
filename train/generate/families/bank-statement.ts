/** Bank statements: account summary, period, balances and a transaction list over pages. */
import { type Column, Flow, field, footers, table, tableStyle } from '../layout.ts';
import { PAGE, PdfDoc } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { sealRaster } from '../raster.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addDays,
  address,
  amount,
  BANKS,
  companyName,
  type DateStyle,
  fmtDate,
  fmtNumber,
  isoOf,
  MONTHS,
  makeId,
  personName,
  phone,
  pickCountry,
  randomDay,
  round2,
  type SimpleDate,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { label, letterhead, lines, makeCtx, picture } from './common.ts';

const ACCOUNT_TYPES = ['Checking', 'Savings', 'Business current', 'Money market'];
const PRODUCERS = ['debit-credit', 'signed', 'european'] as const;
const SHOPS = [
  'GREENWAY MARKET',
  'CITY POWER CO',
  'NORTHSIDE FUEL',
  'BLUEBELL PHARMACY',
  'METRO TRANSIT',
  'CLOUDNET ISP',
  'HARBOUR CAFE',
  'OFFICE DEPOT 22',
  'WATERWORKS UTILITY',
  'SUNRISE BAKERY',
  'TOWN COUNCIL TAX',
  'MOBILE TELECOM',
];
const DEBIT_KINDS = ['CARD PURCHASE', 'DIRECT DEBIT', 'POS', 'STANDING ORDER', 'BILL PAYMENT'];

interface Tx {
  day: SimpleDate;
  description: string;
  amount: number;
  balance: number;
}

async function generate(seed: number) {
  const rng = makeRng(hashSeed('bank_statement', seed));
  const producer = rng.pick(PRODUCERS);
  const country =
    producer === 'european' ? rng.pick(['DE', 'NL', 'FR', 'ES', 'IE'] as const) : pickCountry(rng);
  const ctx = makeCtx(rng, country);
  const bank = rng.pick(BANKS);
  const business = rng.chance(0.35);
  const holder = business ? companyName(rng, country) : personName(rng);
  const holderAddr = address(rng, country);
  const acctType = business ? rng.pick(['Business current', 'Checking']) : rng.pick(ACCOUNT_TYPES);
  const showType = rng.chance(0.8);
  const europe = ['DE', 'NL', 'FR', 'ES', 'IE'].includes(country);
  const acctNo = europe
    ? `${country === 'IE' ? 'IE' : country}${rng.int(10, 99)} ${makeId(rng, 'AAAA #### #### #### ##')}`
    : rng.chance(0.5)
      ? makeId(rng, '####-######-##')
      : `****${makeId(rng, '####')}`;
  const customerRef = rng.chance(0.5) ? makeId(rng, 'CIF 9#######') : null;
  const start = randomDay(rng);
  const end = addDays(start, rng.pick([27, 29, 30, 30, 89]));
  const showStart = rng.chance(0.8);
  const overdraft = rng.chance(0.5);
  const limit = amount(rng, 250, 5000, false);

  // Transactions.
  const n = rng.chance(0.35) ? rng.int(30, 70) : rng.int(8, 26);
  const opening = amount(rng, overdraft ? -200 : 50, 12000);
  const txs: Tx[] = [];
  let balance = opening;
  const used = new Set<string>();
  const span = (end.y - start.y) * 365 + (end.m - start.m) * 30 + end.d - start.d;
  const days = Array.from({ length: n }, () => rng.int(0, Math.max(1, span))).sort((a, b) => a - b);
  const employer = companyName(rng, country).split(' ').slice(0, 2).join(' ').toUpperCase();
  for (const d of days) {
    const credit = rng.chance(0.25);
    let description: string;
    do {
      if (credit) {
        description = rng.pick([
          `SALARY ${employer}`,
          `TRANSFER FROM ${personName(rng).toUpperCase()}`,
          `MOBILE DEPOSIT ${makeId(rng, '9####')}`,
          `REFUND ${rng.pick(SHOPS)}`,
          `CASH DEPOSIT BRANCH ${makeId(rng, '0##')}`,
          'INTEREST PAID',
        ]);
      } else {
        description = `${rng.pick(DEBIT_KINDS)} ${rng.pick(SHOPS)}${rng.chance(0.5) ? ` ${makeId(rng, '9###')}` : ''}`;
      }
    } while (used.has(description));
    used.add(description);
    const value = credit
      ? amount(rng, 20, description.startsWith('SALARY') ? 6000 : 900)
      : -amount(rng, 3, 700);
    balance = round2(balance + value);
    txs.push({ day: addDays(start, d), description, amount: value, balance });
  }
  const closing = balance;
  const deposits = round2(txs.filter((t) => t.amount > 0).reduce((a, t) => a + t.amount, 0));
  const withdrawals = round2(-txs.filter((t) => t.amount < 0).reduce((a, t) => a + t.amount, 0));

  const doc = new PdfDoc();
  const size = europe || rng.chance(0.3) ? PAGE.a4 : PAGE.letter;
  const fs = rng.pick([8, 8.5, 9]);
  const flow = new Flow(doc, {
    size,
    margins: { top: 46, bottom: 78, left: 46, right: 46 },
    fonts: ctx.fonts,
    fontSize: fs,
    onNewPage: (f) => {
      f.page.text(f.left, f.y + fs, `${bank} · ${holder}`, ctx.fonts.regular, fs - 1, { color: 0.35 });
      f.page.text(f.right, f.y + fs, `Account ${acctNo}`, ctx.fonts.regular, fs - 1, {
        align: 'right',
        color: 0.35,
      });
      f.y += fs * 2.5;
    },
  });
  const p1 = flow.page;
  const at: Record<string, Ev> = {};
  const logos: RegionAnswer[] = [];
  const bankAddr = address(rng, country).lines.join(', ');
  const bankTel = phone(rng, country);
  const head = letterhead(p1, rng, {
    company: bank,
    lines: [bankAddr, `Customer service ${bankTel}`],
    fonts: ctx.fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width * 0.6,
    withLogo: true,
    align: 'left',
  });
  if (head.logo) logos.push(head.logo);
  if (rng.chance(0.5)) {
    const badge = sealRaster(rng, rng.pick(['INS', 'FSC', 'DG']));
    logos.push(picture(p1, flow.right - 48, flow.y, 48, badge));
  }
  let y = Math.max(head.bottom, flow.y + 52) + 8;
  const title = rng.pick([
    'Account Statement',
    'STATEMENT OF ACCOUNT',
    'Monthly Statement',
    ...(country === 'DE' ? ['Kontoauszug / Statement'] : []),
  ]);
  p1.text(flow.left, y + 15, title, ctx.fonts.bold, 15);
  y += 26;
  const addrBottom = lines(p1, flow.left, y, [holder, ...holderAddr.lines], ctx.fonts.regular, fs + 0.5);
  at.holder = ev(1, holder);

  // Account details on the right.
  const numeric: DateStyle = ctx.dateStyle;
  const fmt = (d: SimpleDate) => fmtDate(d, numeric);
  const details: [string, string, string | null][] = [];
  details.push([
    label(rng, europe ? ['IBAN', 'Account (IBAN)'] : ['Account number', 'Account No.', 'Acct #'], false),
    acctNo,
    'acct',
  ]);
  if (showType)
    details.push([label(rng, ['Account type', 'Product', 'Account'], false), `${acctType} account`, 'type']);
  if (customerRef) details.push([label(rng, ['Customer number', 'Client ref.'], false), customerRef, 'cust']);
  if (showStart) {
    details.push([label(rng, ['Period from', 'Statement start', 'From'], false), fmt(start), 'start']);
    details.push([label(rng, ['Period to', 'Statement end', 'To'], false), fmt(end), 'end']);
  } else {
    details.push([
      label(rng, ['Statement period ending', 'Period ending', 'Closing date'], false),
      fmt(end),
      'end',
    ]);
  }
  details.push([
    label(rng, ['Statement date', 'Issued on', 'Printed'], false),
    fmt(addDays(end, rng.int(1, 4))),
    null,
  ]);
  if (!europe && rng.chance(0.6))
    details.push([
      country === 'UK' ? 'Sort code' : 'Routing number',
      makeId(rng, country === 'UK' ? '##-##-##' : '0########'),
      null,
    ]);
  const dx = flow.left + flow.width * 0.5;
  const dw = flow.width * 0.5;
  let dy = y;
  const ruled = rng.chance(0.5);
  for (const [l, v, k] of details) {
    dy += field(p1, dx, dy, dw, l, v, 'right', { fonts: ctx.fonts, size: fs, ruled, labelWidth: dw * 0.42 });
    if (k === 'type') at.type = ev(1, acctType);
    else if (k) at[k] = ev(1, v);
  }
  flow.y = Math.max(addrBottom, dy) + 14;

  // Summary.
  const m = (v: number) => ctx.amount(v);
  const summary: [string, string, string | null][] = [
    [
      label(rng, ['Opening balance', 'Balance brought forward', 'Previous balance'], false),
      m(opening),
      'open',
    ],
    [label(rng, ['Total deposits', 'Money in', 'Credits'], false), m(deposits), null],
    [label(rng, ['Total withdrawals', 'Money out', 'Debits'], false), m(withdrawals), null],
    [label(rng, ['Closing balance', 'Balance carried forward', 'New balance'], false), m(closing), 'close'],
  ];
  flow.line(rng.pick(['Summary', 'Account summary', 'Your balance at a glance']), {
    font: ctx.fonts.bold,
    size: fs + 1.5,
  });
  const sw = flow.width * 0.5;
  for (const [l, v, k] of summary) {
    flow.page.text(flow.left, flow.y + fs, l, ctx.fonts.regular, fs);
    flow.page.text(flow.left + sw, flow.y + fs, v, k === 'close' ? ctx.fonts.bold : ctx.fonts.regular, fs, {
      align: 'right',
    });
    if (k) at[k] = ev(flow.pageNo, v);
    flow.y += fs * 1.6;
  }
  const odLine = overdraft
    ? `${rng.pick(['Arranged overdraft limit', 'Overdraft limit', 'Overdraft facility'])}: ${m(limit)}`
    : rng.pick([
        'Overdraft facility: None',
        'Arranged overdraft limit: none',
        'This account has no overdraft facility.',
      ]);
  flow.line(odLine);
  at.od = ev(flow.pageNo, odLine);
  flow.space(10);

  // Transactions.
  const dateStyleTx: DateStyle = rng.chance(0.5) ? numeric : 'dayShort';
  const txDate = (d: SimpleDate) =>
    dateStyleTx === 'dayShort'
      ? `${String(d.d).padStart(2, '0')} ${MONTHS[d.m - 1]!.slice(0, 3)}`
      : fmtDate(d, dateStyleTx);
  const plain = (v: number) => fmtNumber(v, ctx.locale.separators);
  let columns: Column[];
  let rows: string[][];
  const opt = { title: rng.pick(['Balance', 'Running balance']), width: 15, align: 'right' as const };
  if (producer === 'debit-credit') {
    columns = [
      { title: 'Date', width: 11 },
      { title: rng.pick(['Description', 'Transaction details', 'Particulars']), width: 45 },
      { title: rng.pick(['Withdrawals', 'Debit', 'Paid out']), width: 14, align: 'right' },
      { title: rng.pick(['Deposits', 'Credit', 'Paid in']), width: 14, align: 'right' },
      opt,
    ];
    rows = txs.map((t) => [
      txDate(t.day),
      t.description,
      t.amount < 0 ? plain(-t.amount) : '',
      t.amount > 0 ? plain(t.amount) : '',
      plain(t.balance),
    ]);
  } else if (producer === 'signed') {
    columns = [
      { title: rng.pick(['Date', 'Posted']), width: 12 },
      { title: rng.pick(['Details', 'Description']), width: 52 },
      { title: 'Amount', width: 16, align: 'right' },
      opt,
    ];
    rows = txs.map((t) => [txDate(t.day), t.description, plain(t.amount), plain(t.balance)]);
  } else {
    columns = [
      { title: 'Booking date', width: 13 },
      { title: 'Value date', width: 13 },
      { title: 'Description', width: 44 },
      { title: `Amount ${ctx.money.currency}`, width: 15, align: 'right' },
      opt,
    ];
    rows = txs.map((t) => [
      txDate(t.day),
      txDate(addDays(t.day, rng.int(0, 2))),
      t.description,
      plain(t.amount),
      plain(t.balance),
    ]);
  }
  flow.line(rng.pick(['Transactions', 'Account activity', 'Transaction history']), {
    font: ctx.fonts.bold,
    size: fs + 1.5,
  });
  const pages = table(flow, columns, rows, tableStyle(rng, ctx.fonts, fs));
  const depositEv = txs.flatMap((t, i) => (t.amount > 0 ? [ev(pages[i]!, t.description)] : []));
  const debits = txs.map((t, i) => ({ t, i })).filter(({ t }) => t.amount < 0);
  const pickTx = debits.length ? rng.pick(debits) : null;
  const pickedPrinted = pickTx ? (producer === 'debit-credit' ? -pickTx.t.amount : pickTx.t.amount) : null;
  const pickedEv = pickTx
    ? ev(pages[pickTx.i]!, producer === 'debit-credit' ? plain(-pickTx.t.amount) : plain(pickTx.t.amount))
    : null;
  if (rng.chance(0.6)) {
    flow.para(
      rng.pick([
        'Please examine this statement carefully and report any discrepancy within 30 days.',
        `Deposits are protected up to the limits set by law. Call ${phone(rng, country)} if you have questions.`,
        'Interest rates are variable and may change. Details are available in branch.',
      ]),
      { size: fs - 0.5 },
    );
  }
  footers(flow, rng, [
    `${bank} · ${rng.pick(['Member of the deposit guarantee scheme', 'Registered bank', 'Equal housing lender'])}`,
  ]);

  const when = pickTx ? fmt(pickTx.t.day) : '';
  const q = new Questions();
  q.text(
    'service_phone',
    [
      'Which phone number does the bank give for customer service?',
      'Customer service phone',
      'Bank telephone',
    ],
    bankTel,
    ev(1, bankTel),
  );
  q.text(
    'account_holder',
    ['Whose account is this?', 'Account holder', 'Name on the account'],
    holder,
    at.holder,
  );
  q.text(
    'account_no',
    ['What is the account number?', 'Account no. / IBAN', 'Which account does the statement cover?'],
    acctNo,
    at.acct,
  );
  q.text(
    'customer_ref',
    ["What is the customer's reference number at the bank?", 'Customer number', 'Client reference'],
    customerRef,
    at.cust,
  );
  q.stated(
    'customer_ref_given',
    [
      'Does the statement give a customer reference number?',
      'Is a customer number shown?',
      'Is there a client reference on the statement?',
    ],
    customerRef,
    at.cust,
  );
  q.date(
    'period_start',
    ['When does the statement period begin?', 'Statement start date', 'Period from'],
    isoOf(start),
    at.start,
  );
  q.date(
    'period_end',
    ['When does the statement period end?', 'Statement end date', 'Closing date of the period'],
    isoOf(end),
    at.end,
  );
  q.number(
    'opening_balance',
    ['What was the opening balance?', 'Balance at the start of the period', 'Opening balance'],
    opening,
    at.open,
  );
  q.number(
    'closing_balance',
    ['What is the closing balance?', 'Ending balance', 'Balance at the end of the statement period'],
    closing,
    at.close,
  );
  if (pickTx) {
    q.number(
      'transaction_amount',
      [
        `How much was the "${pickTx.t.description}" transaction?`,
        `Amount of ${pickTx.t.description} (${when})`,
        `What amount is shown for ${pickTx.t.description.toLowerCase()}?`,
      ],
      pickedPrinted,
      pickedEv,
    );
  }
  q.category(
    'account_type',
    ['What kind of account is this?', 'Account type', 'Is it a checking, savings or other account?'],
    ACCOUNT_TYPES,
    acctType,
    at.type,
  );
  q.bool(
    'overdraft_facility',
    ['Does the account have an overdraft facility?', 'Overdraft arranged?', 'Is there an overdraft limit?'],
    overdraft,
    at.od,
  );
  q.items(
    'deposits',
    ['List the deposits (money in).', 'Which credits were received?', 'Descriptions of incoming payments'],
    depositEv,
  );
  q.image('bank_logo', ["Where is the bank's logo?", 'Bank logo', 'Logo of the issuing bank'], head.logo);
  q.images(
    'logos',
    ['All logos and badges', 'Every logo on the statement', 'Find the graphics in the header'],
    logos,
  );
  return pdfDoc('bank_statement', seed, producer, doc.save(), q);
}

export const bankStatement: Family = { name: 'bank_statement', generate };
