/** Invoices: seller and buyer blocks, reference numbers, dates, line items and totals. */
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
  CURRENCY_CODES,
  companyName,
  GOODS,
  isoOf,
  type Product,
  phone,
  pickCountry,
  randomDay,
  refNumber,
  round2,
  SERVICES,
  websiteFor,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { type Ctx, heightFor, label, letterhead, lines, makeCtx, picture } from './common.ts';

const PAYMENT_METHODS = ['Bank transfer', 'Credit card', 'Check', 'Direct debit', 'PayPal'];
const PRODUCERS = ['banner', 'boxed', 'ledger', 'columns'] as const;

interface Line {
  description: string;
  qty: number;
  unit: number;
  total: number;
  sku: string;
}

function drawLines(rng: ReturnType<typeof makeRng>, pool: Product[], n: number): Line[] {
  return rng.sample(pool, n).map((p) => {
    const qty = p.unit === 'hr' ? rng.int(1, 40) : rng.int(1, 24);
    const unit = amount(rng, p.price[0], p.price[1]);
    return {
      description: p.name,
      qty,
      unit,
      total: round2(qty * unit),
      sku: `${rng.int(100, 999)}-${rng.int(1000, 9999)}`,
    };
  });
}

async function generate(seed: number) {
  const rng = makeRng(hashSeed('invoice', seed));
  const producer = rng.pick(PRODUCERS);
  const country = pickCountry(rng);
  const ctx: Ctx = makeCtx(
    rng,
    country,
    producer === 'ledger' ? { regular: 'Courier', bold: 'Courier-Bold' } : undefined,
  );
  const seller = companyName(rng, country);
  const buyerCountry = rng.chance(0.75) ? country : pickCountry(rng);
  const buyer = companyName(rng, buyerCountry, [seller]);
  const sellerAddr = address(rng, country, buyerCountry !== country);
  const buyerAddr = address(rng, buyerCountry, buyerCountry !== country);
  const issue = randomDay(rng);
  const due = addDays(issue, rng.pick([14, 15, 30, 30, 45, 60]));
  const delivered = addDays(issue, -rng.int(1, 12));
  const invoiceNo = refNumber(rng, 'invoice', issue.y);
  const customerNo = refNumber(rng, 'customer', issue.y);
  const poNo = rng.chance(0.55) ? refNumber(rng, 'po', issue.y) : null;
  const showDue = rng.chance(0.8);
  const taxRate = rng.chance(0.8) ? rng.pick([5, 7, 8.25, 10, 19, 20, 21]) : null;
  const paid = rng.chance(0.5);
  const method = rng.chance(0.65) ? rng.pick(PAYMENT_METHODS) : null;
  const manyLines = rng.chance(0.25);
  const items = drawLines(
    rng,
    rng.chance(0.5) ? GOODS : SERVICES,
    manyLines ? rng.int(18, 34) : rng.int(2, 9),
  );
  const subtotal = round2(items.reduce((a, l) => a + l.total, 0));
  const shipping = rng.chance(0.4) ? amount(rng, 8, 90) : 0;
  const credit = rng.chance(0.2) ? -amount(rng, 10, Math.min(200, subtotal / 4)) : 0;
  const tax = taxRate ? round2(((subtotal + shipping + credit) * taxRate) / 100) : 0;
  const total = round2(subtotal + shipping + credit + tax);
  const taxName = country === 'US' || country === 'CA' ? 'Sales tax' : country === 'AU' ? 'GST' : 'VAT';

  const doc = new PdfDoc();
  const size = producer === 'boxed' || rng.chance(0.3) ? PAGE.a4 : PAGE.letter;
  const fs = producer === 'ledger' ? 9 : rng.pick([9, 9.5, 10]);
  const flow = new Flow(doc, {
    size,
    margins: { top: 48, bottom: 78, left: 50, right: 50 },
    fonts: ctx.fonts,
    fontSize: fs,
  });
  const page1 = flow.page;
  const at: Record<string, Ev> = {};
  const images: RegionAnswer[] = [];

  // Letterhead.
  const sellerLines = [...sellerAddr.lines, `Tel. ${phone(rng, country)}`, websiteFor(seller)];
  const head = letterhead(page1, rng, {
    company: seller,
    lines: sellerLines,
    fonts: ctx.fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width * (producer === 'banner' ? 0.55 : 1),
    withLogo: rng.chance(0.85),
    align: producer === 'boxed' ? 'center' : producer === 'banner' ? 'left' : undefined,
  });
  at.seller = ev(1, seller);
  if (head.logo) images.push(head.logo);
  const title = rng.pick(['INVOICE', 'Invoice', 'TAX INVOICE', 'Commercial Invoice', 'SALES INVOICE']);
  let y = head.bottom + 8;
  if (producer === 'banner') {
    page1.rect(flow.right - 180, flow.y, 180, 30, { stroke: 0, fill: 0.82 });
    page1.text(flow.right - 90, flow.y + 21, title, ctx.fonts.bold, 16, { align: 'center' });
  } else {
    page1.text(flow.left, y + 18, title, ctx.fonts.bold, 18);
    y += 30;
  }

  // Reference fields.
  const lab = {
    no: label(rng, [
      'Invoice No.',
      'Invoice #',
      'Invoice Number',
      'Inv. Ref',
      'Invoice no.',
      'Document No.',
      'Bill No.',
    ]),
    issue: label(rng, ['Invoice Date', 'Date', 'Date of issue', 'Issued', 'Invoice date']),
    due: label(rng, ['Due Date', 'Payment due', 'Due by', 'Pay by']),
    cust: label(rng, ['Customer No.', 'Account #', 'Client ID', 'Customer ref.']),
    po: label(rng, ['PO Number', 'Your order ref.', 'Purchase Order', 'P.O. #']),
    delivered: label(rng, ['Delivery date', 'Date of supply', 'Shipped', 'Service date']),
  };
  const meta: [string, string, string | null][] = [
    [lab.no, invoiceNo, 'no'],
    [lab.issue, ctx.date(issue), 'issue'],
    ...(showDue ? [[lab.due, ctx.date(due), 'due'] as [string, string, string]] : []),
    [lab.cust, customerNo, null],
    ...(poNo ? [[lab.po, poNo, 'po'] as [string, string, string]] : []),
    [lab.delivered, ctx.date(delivered), null],
  ];
  const metaOrder = rng.chance(0.5) ? meta : [meta[0]!, ...rng.shuffle(meta.slice(1))];
  const keep = (k: string | null, value: string) => {
    if (k === 'no') at.no = ev(1, value);
    if (k === 'issue') at.issue = ev(1, value);
    if (k === 'due') at.due = ev(1, value);
    if (k === 'po') at.po = ev(1, value);
  };
  const billTo = [buyer, ...buyerAddr.lines];
  const billLabel = rng.pick(['Bill To:', 'BILL TO', 'Invoice to:', 'Customer:', 'Sold to']);
  if (producer === 'boxed' || producer === 'columns') {
    // Fields across the page, label in a box corner, above the box, or above the value.
    const style: FieldStyle = producer === 'boxed' ? rng.pick(['boxCorner', 'boxAbove'] as const) : 'below';
    const perRow = 3;
    const cw = (flow.width - (perRow - 1) * 8) / perRow;
    metaOrder.forEach(([l, v, k], i) => {
      const col = i % perRow;
      const row = Math.floor(i / perRow);
      field(page1, flow.left + col * (cw + 8), y + row * (fieldHeight(style, fs) + 4), cw, l, v, style, {
        fonts: ctx.fonts,
        size: fs,
        upper: producer === 'boxed' && rng.chance(0.5),
      });
      keep(k, v);
    });
    y += Math.ceil(metaOrder.length / perRow) * (fieldHeight(style, fs) + 4) + 10;
    page1.text(flow.left, y + fs, billLabel, ctx.fonts.bold, fs);
    y = lines(page1, flow.left, y + fs * 1.5, billTo, ctx.fonts.regular, fs);
  } else {
    // Bill-to on the left, reference fields on the right.
    const style: FieldStyle = producer === 'ledger' ? 'inline' : 'right';
    const mx = flow.left + flow.width * 0.52;
    const mw = flow.width * 0.48;
    let my = y;
    const ruled = rng.chance(0.5);
    for (const [l, v, k] of metaOrder) {
      my += field(page1, mx, my, mw, l, v, style, {
        fonts: ctx.fonts,
        size: fs,
        ruled,
        labelWidth: mw * 0.45,
      });
      keep(k, v);
    }
    page1.text(flow.left, y + fs, billLabel, ctx.fonts.bold, fs);
    const by = lines(page1, flow.left, y + fs * 1.5, billTo, ctx.fonts.regular, fs);
    y = Math.max(by, my) + 8;
  }
  at.buyer = ev(1, buyer);
  flow.y = y + 10;

  // Line items.
  const colSets: Column[][] = [
    [
      { title: 'Description', width: 50 },
      { title: 'Qty', width: 10, align: 'right' },
      { title: 'Unit Price', width: 18, align: 'right' },
      { title: 'Amount', width: 18, align: 'right' },
    ],
    [
      { title: 'Item', width: 14 },
      { title: 'Description', width: 46 },
      { title: 'Quantity', width: 12, align: 'right' },
      { title: 'Rate', width: 14, align: 'right' },
      { title: 'Total', width: 16, align: 'right' },
    ],
    [
      { title: 'Qty', width: 8, align: 'center' },
      { title: 'Article', width: 52 },
      { title: 'Price', width: 18, align: 'right' },
      { title: 'Line total', width: 18, align: 'right' },
    ],
  ];
  const colSet = rng.int(0, 2);
  const num = (v: number) => ctx.amount(v).replace(/^[^\d-(]+|[^\d)]+$/g, '');
  const rows = items.map((l) =>
    colSet === 0
      ? [l.description, String(l.qty), num(l.unit), num(l.total)]
      : colSet === 1
        ? [l.sku, l.description, String(l.qty), num(l.unit), num(l.total)]
        : [String(l.qty), l.description, num(l.unit), num(l.total)],
  );
  const rowPages = table(flow, colSets[colSet]!, rows, tableStyle(rng, ctx.fonts, fs));
  const itemEv = items.map((l, i) => ev(rowPages[i]!, l.description));

  // Totals.
  const totalLabel = label(rng, [
    'Total',
    'TOTAL DUE',
    'Amount due',
    'Invoice total',
    'Grand Total',
    'Total (incl. tax)',
  ]);
  const totals: [string, string, string | null][] = [
    [label(rng, ['Subtotal', 'Net amount', 'Sub-total']), ctx.amount(subtotal), null],
  ];
  if (shipping)
    totals.push([label(rng, ['Shipping', 'Freight', 'Delivery charge']), ctx.amount(shipping), null]);
  if (credit)
    totals.push([label(rng, ['Less credit', 'Credit applied', 'Discount']), ctx.amount(credit), null]);
  if (taxRate) totals.push([`${taxName} (${taxRate}%)`, ctx.amount(tax), 'tax']);
  totals.push([totalLabel, ctx.amount(total), 'total']);
  flow.ensure(totals.length * fs * 1.8 + 60);
  const tx = flow.left + flow.width * 0.5;
  for (const [l, v, k] of totals) {
    const bold = k === 'total';
    if (bold) flow.page.line(tx, flow.y, flow.right, flow.y, 0.6);
    flow.page.text(tx, flow.y + fs * 1.2, l, bold ? ctx.fonts.bold : ctx.fonts.regular, fs);
    flow.page.text(flow.right, flow.y + fs * 1.2, v, bold ? ctx.fonts.bold : ctx.fonts.regular, fs, {
      align: 'right',
    });
    if (k === 'tax') at.tax = ev(flow.pageNo, v);
    if (k === 'total') at.total = ev(flow.pageNo, v);
    flow.y += fs * 1.8;
  }
  flow.y += 8;

  // Status, currency, payment instructions.
  const status = paid
    ? rng.pick(['PAID', 'Paid in full', 'Settled'])
    : rng.pick(['UNPAID', 'Outstanding', 'Awaiting payment']);
  const statusLine = `${rng.pick(['Status', 'Payment status'])}: ${status}`;
  flow.line(statusLine, { font: ctx.fonts.bold });
  at.paid = ev(flow.pageNo, statusLine);
  if (paid && rng.chance(0.7)) {
    const stamp = stampRaster(rng, rng.pick(['PAID', 'RECEIVED', 'PAID IN FULL']));
    const h = heightFor(100, stamp);
    flow.ensure(h + 4);
    images.push(picture(flow.page, flow.right - 110, flow.y, 100, stamp));
    flow.y += h + 4;
  }
  const curLine =
    ctx.money.style === 'code' || rng.chance(0.5) ? `All amounts in ${ctx.money.currency}.` : null;
  if (curLine) flow.line(curLine);
  at.currency = curLine ? ev(flow.pageNo, curLine) : ev(at.total!.page, at.total!.quote);
  if (method) {
    const ml = `${rng.pick(['Payment method', 'Paid by', 'Method of payment'])}: ${method}`;
    flow.line(ml);
    at.method = ev(flow.pageNo, method);
  }
  const terms = rng.pick([
    `Please quote ${lab.no.replace(/:$/, '')} with your payment.`,
    'Late payments may incur interest at 1.5% per month.',
    `Questions about this invoice? Call ${phone(rng, country)}.`,
    'Thank you for your business!',
  ]);
  flow.para(terms, { size: fs - 0.5 });
  if (rng.chance(0.6)) {
    flow.para(
      `Bank: ${rng.pick(['First Meridian Bank', 'Harbourline Savings Bank', 'Zuiderbank', 'Atlantic Crown Bank'])}, account ${refNumber(rng, 'generic', issue.y)}, sort/routing ${rng.int(100000, 999999)}`,
      { size: fs - 1 },
    );
  }
  footers(flow, rng, [
    `${seller} · ${sellerAddr.lines.join(', ')}`,
    `Registered office: ${sellerAddr.city} · ${phone(rng, country)}`,
  ]);

  const q = new Questions();
  q.text(
    'invoice_no',
    [
      'What is the invoice number?',
      'Invoice no.',
      'Which reference number identifies this invoice?',
      'Give the invoice reference.',
    ],
    invoiceNo,
    at.no,
  );
  q.text(
    'seller',
    [
      'Who issued this invoice?',
      'Name of the seller',
      'Which company is billing?',
      'Supplier name',
      'Which company issued this invoice (the seller, not the customer)?',
    ],
    seller,
    at.seller,
  );
  q.text(
    'buyer',
    [
      'Who is the invoice addressed to?',
      'Customer name',
      'Which company is being billed?',
      'Bill-to party',
      'Who is billed (the customer, not the seller)?',
    ],
    buyer,
    at.buyer,
  );
  q.text(
    'po_reference',
    [
      "What is the customer's purchase order number?",
      'PO number',
      'Which purchase order does this invoice refer to?',
    ],
    poNo,
    at.po,
  );
  q.date(
    'issue_day',
    [
      'When was the invoice issued?',
      'Invoice date',
      'Date the invoice was raised',
      'Issue date of this bill',
    ],
    isoOf(issue),
    at.issue,
  );
  q.date(
    'due_day',
    ['When is payment due?', 'Due date', 'By what date must this invoice be paid?', 'Payment deadline'],
    isoOf(due),
    at.due,
  );
  q.number(
    'grand_total',
    [
      'What is the total amount due?',
      'Invoice total',
      'How much does the customer owe in total?',
      'Grand total including tax',
    ],
    total,
    at.total,
  );
  q.number(
    'tax_amount',
    [
      'How much tax is charged?',
      'Tax amount',
      'VAT / sales tax charged on this invoice',
      'What is the tax on this invoice?',
    ],
    taxRate ? tax : null,
    at.tax,
  );
  q.category(
    'currency_code',
    ['Which currency is this invoice in?', 'Currency (ISO code)', 'What currency are the amounts billed in?'],
    CURRENCY_CODES,
    ctx.money.currency,
    at.currency,
  );
  q.category(
    'payment_method',
    ['How is the invoice paid?', 'Payment method', 'What means of payment is stated?'],
    PAYMENT_METHODS,
    method,
    at.method,
  );
  q.bool(
    'is_paid',
    ['Has this invoice been paid?', 'Paid?', 'Is the invoice settled?', 'Invoice paid in full?'],
    paid,
    at.paid,
  );
  q.items(
    'line_items',
    ['List the items billed.', 'Line item descriptions', 'What products or services are on this invoice?'],
    itemEv,
  );
  q.image(
    'seller_logo',
    ["Show the seller's logo.", 'Company logo', 'Where is the logo of the issuing company?'],
    head.logo,
  );
  q.images(
    'graphics',
    [
      'All logos and stamps on the invoice',
      'Find every logo or stamp.',
      'Which graphics appear on this invoice?',
    ],
    images,
  );
  return pdfDoc('invoice', seed, producer, doc.save(), q);
}

export const invoice: Family = { name: 'invoice', generate };
