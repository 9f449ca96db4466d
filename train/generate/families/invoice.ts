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
const PRODUCERS = ['banner', 'boxed', 'ledger', 'columns', 'parties'] as const;

/**
 * Printed words of an invoice in the languages European sellers print them in, so the word
 * associations learn that an English question about the "invoice number" is answered beside
 * "Rechnungsnummer" or "Factuurnummer". Questions stay in English, as users write them.
 */
interface Words {
  title: string[];
  no: string[];
  issue: string[];
  due: string[];
  cust: string[];
  po: string[];
  delivered: string[];
  billTo: string[];
  from: string[];
  subtotal: string[];
  total: string[];
  status: string[];
  paid: string[];
  unpaid: string[];
}
const WORDS: Record<'en' | 'de' | 'nl' | 'fr', Words> = {
  en: {
    title: ['INVOICE', 'Invoice', 'TAX INVOICE', 'Commercial Invoice', 'SALES INVOICE'],
    no: ['Invoice No.', 'Invoice #', 'Invoice Number', 'Inv. Ref', 'Invoice no.', 'Document No.', 'Bill No.'],
    issue: ['Invoice Date', 'Date', 'Date of issue', 'Issued', 'Invoice date'],
    due: ['Due Date', 'Payment due', 'Due by', 'Pay by'],
    cust: ['Customer No.', 'Account #', 'Client ID', 'Customer ref.'],
    po: ['PO Number', 'Your order ref.', 'Purchase Order', 'P.O. #', 'Order number'],
    delivered: ['Delivery date', 'Date of supply', 'Shipped', 'Service date'],
    billTo: ['Bill To:', 'BILL TO', 'Invoice to:', 'Customer:', 'Sold to', 'BILLED TO:'],
    from: ['From:', 'PROVIDED BY:', 'Seller:', 'Issued by:', 'Supplier:', 'Vendor'],
    subtotal: ['Subtotal', 'Net amount', 'Sub-total'],
    total: ['Total', 'TOTAL DUE', 'Amount due', 'Invoice total', 'Grand Total', 'Total (incl. tax)'],
    status: ['Status', 'Payment status'],
    paid: ['PAID', 'Paid in full', 'Settled'],
    unpaid: ['UNPAID', 'Outstanding', 'Awaiting payment'],
  },
  de: {
    title: ['RECHNUNG', 'Rechnung'],
    no: ['Rechnungsnummer', 'Rechnungs-Nr.', 'Rechnung Nr.', 'Belegnummer'],
    issue: ['Rechnungsdatum', 'Datum', 'Ausstellungsdatum'],
    due: ['Fällig am', 'Zahlbar bis', 'Fälligkeitsdatum'],
    cust: ['Kundennummer', 'Kunden-Nr.'],
    po: ['Bestellnummer', 'Ihre Bestellung', 'Auftragsnummer'],
    delivered: ['Lieferdatum', 'Leistungsdatum'],
    billTo: ['Rechnungsempfänger:', 'Kunde:', 'Rechnung an:'],
    from: ['Absender:', 'Verkäufer:', 'Rechnungssteller:'],
    subtotal: ['Zwischensumme', 'Nettobetrag'],
    total: ['Gesamtbetrag', 'Gesamt', 'Rechnungsbetrag', 'Summe brutto'],
    status: ['Status', 'Zahlungsstatus'],
    paid: ['BEZAHLT', 'Bezahlt'],
    unpaid: ['UNBEZAHLT', 'Offen'],
  },
  nl: {
    title: ['FACTUUR', 'Factuur'],
    no: ['Factuurnummer', 'Factuurnr.', 'Factuur nr.'],
    issue: ['Factuurdatum', 'Datum'],
    due: ['Vervaldatum', 'Te betalen voor'],
    cust: ['Klantnummer', 'Debiteurnummer'],
    po: ['Ordernummer', 'Uw referentie', 'Bestelnummer'],
    delivered: ['Leverdatum', 'Orderdatum'],
    billTo: ['Factuuradres:', 'Klant:', 'Aan:'],
    from: ['Van:', 'Leverancier:', 'Verkoper:'],
    subtotal: ['Subtotaal', 'Totaal excl. BTW'],
    total: ['Totaal', 'Totaal incl. BTW', 'Te betalen'],
    status: ['Status', 'Betaalstatus'],
    paid: ['BETAALD', 'Betaald'],
    unpaid: ['ONBETAALD', 'Openstaand'],
  },
  fr: {
    title: ['FACTURE', 'Facture'],
    no: ['N° de facture', 'Facture n°', 'Numéro de facture', 'N° facture'],
    issue: ['Date de facture', 'Date', "Date d'émission"],
    due: ["Date d'échéance", 'Échéance', 'À payer avant le'],
    cust: ['N° client', 'Code client'],
    po: ['N° de commande', 'Votre commande', 'Bon de commande'],
    delivered: ['Date de livraison', 'Date de prestation'],
    billTo: ['Facturé à :', 'Client :', 'Adresse de facturation'],
    from: ['Émetteur :', 'Vendeur :', 'Fournisseur :'],
    subtotal: ['Sous-total', 'Total HT'],
    total: ['Total TTC', 'Montant total', 'Net à payer'],
    status: ['Statut', 'État du paiement'],
    paid: ['PAYÉE', 'Réglée'],
    unpaid: ['IMPAYÉE', 'En attente de paiement'],
  },
};

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
  const words = WORDS[rng.chance(0.7) ? 'en' : rng.pick(['de', 'nl', 'fr'] as const)];
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

  // The customer named again elsewhere (own stream, so the rest of the document is drawn as
  // before): uncaptioned after the totals, or captioned there ("Licensed To:", "Customer:")
  // while its block at the top stands without a caption, as on many online-service receipts.
  // Either way only the captioned mention tells whose name it is.
  const again = makeRng(hashSeed('invoice-buyer-again', seed));
  const buyerAgain = again.chance(0.6)
    ? again.pick(['uncaptioned', 'uncaptioned', 'captioned'] as const)
    : null;
  // Letterhead; in the 'parties' layout the seller's block sits in a column under a heading
  // beside the customer's, and only a logo stands at the top.
  const sellerTel = phone(rng, country);
  const sellerSite = websiteFor(seller);
  const sellerLines = [...sellerAddr.lines, `Tel. ${sellerTel}`, sellerSite];
  const head = letterhead(page1, rng, {
    company: seller,
    lines: sellerLines,
    logoOnly: producer === 'parties',
    fonts: ctx.fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width * (producer === 'banner' ? 0.55 : 1),
    withLogo: rng.chance(0.85),
    align: producer === 'boxed' ? 'center' : producer === 'banner' ? 'left' : undefined,
  });
  at.seller = ev(1, seller);
  at.sellerTel = ev(1, sellerTel);
  at.sellerSite = ev(1, sellerSite);
  if (head.logo) images.push(head.logo);
  const title = rng.pick(words.title);
  let y = head.bottom + 8;
  if (producer === 'parties') {
    // Customer first, at the left, each block under its own heading.
    const colX = flow.left + flow.width * 0.55;
    const billHead = rng.pick(words.billTo);
    page1.text(flow.left, y + fs, billHead, ctx.fonts.bold, fs);
    page1.text(colX, y + fs, rng.pick(words.from), ctx.fonts.bold, fs);
    const gapY = y + fs * (rng.chance(0.5) ? 3.2 : 1.6);
    const contact = rng.chance(0.5)
      ? [`${rng.pick(['Attn.', ''])} ${rng.pick(['A. Novak', 'J. Smith', 'M. Rossi', 'K. Weber'])}`.trim()]
      : [];
    const by = lines(page1, flow.left, gapY, [...contact, buyer, ...buyerAddr.lines], ctx.fonts.regular, fs);
    const sy = lines(page1, colX, gapY, [seller, ...sellerLines], ctx.fonts.regular, fs);
    y = Math.max(by, sy) + 10;
  }
  if (producer === 'banner') {
    page1.rect(flow.right - 180, flow.y, 180, 30, { stroke: 0, fill: 0.82 });
    page1.text(flow.right - 90, flow.y + 21, title, ctx.fonts.bold, 16, { align: 'center' });
  } else {
    page1.text(flow.left, y + 18, title, ctx.fonts.bold, 18);
    y += 30;
  }

  // Reference fields.
  const lab = {
    no: label(rng, words.no),
    issue: label(rng, words.issue),
    due: label(rng, words.due),
    cust: label(rng, words.cust),
    po: label(rng, words.po),
    delivered: label(rng, words.delivered),
  };
  // The payment status: a header field on some invoices, a line under the totals on others.
  const status = paid ? rng.pick(words.paid) : rng.pick(words.unpaid);
  const statusLabel = rng.pick(words.status);
  const statusInHeader = rng.chance(0.4);
  const meta: [string, string, string | null][] = [
    [lab.no, invoiceNo, 'no'],
    ...(statusInHeader ? [[`${statusLabel}:`, status, 'paid'] as [string, string, string]] : []),
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
    if (k === 'paid') at.paid = ev(1, value);
  };
  // The 'parties' layout printed both blocks already.
  const billTo = producer === 'parties' ? [] : [buyer, ...buyerAddr.lines];
  const pickedBillLabel = producer === 'parties' ? '' : rng.pick(words.billTo);
  const billLabel = buyerAgain === 'captioned' ? '' : pickedBillLabel;
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
    if (billLabel) page1.text(flow.left, y + fs, billLabel, ctx.fonts.bold, fs);
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
    if (billLabel) page1.text(flow.left, y + fs, billLabel, ctx.fonts.bold, fs);
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
  // The item codes, when the table prints them: a list of identifiers beside the descriptions.
  const codeEv = colSet === 1 ? items.map((l, i) => ev(rowPages[i]!, l.sku)) : null;

  // Totals.
  const totalLabel = label(rng, words.total);
  const totals: [string, string, string | null][] = [
    [label(rng, words.subtotal), ctx.amount(subtotal), null],
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
  if (!statusInHeader) {
    const statusLine = `${statusLabel}: ${status}`;
    flow.line(statusLine, { font: ctx.fonts.bold });
    at.paid = ev(flow.pageNo, statusLine);
  }
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
  if (buyerAgain === 'captioned') {
    flow.line(`${again.pick(['Licensed To:', 'Customer:', 'Sold to:', 'Billed to:', 'Client:'])} ${buyer}`);
  } else if (buyerAgain === 'uncaptioned') {
    flow.line(
      again.pick([
        `Account: ${buyer}`,
        buyer,
        `Prepared for ${buyer}`,
        `Project: ${buyer} support`,
        `Contact: ${again.pick(['A. Novak', 'J. Smith', 'M. Rossi'])}, ${buyer}`,
      ]),
    );
  }
  // Terms that speak of payment whether or not this invoice is paid: the status line, not
  // these, answers "has it been paid?".
  const terms = rng
    .sample(
      [
        `Please quote ${lab.no.replace(/:$/, '')} with your payment.`,
        'Late payments may incur interest at 1.5% per month.',
        `Questions about this invoice? Call ${phone(rng, country)}.`,
        'Thank you for your business!',
        'Title to the goods passes to the buyer only once they have been paid for in full.',
        'Interest accrues on any balance not paid by the due date.',
        'Invoices that remain unpaid after 30 days may be referred to a collection agency.',
        'Payment must be made in full without deduction or set-off.',
        'Once paid, this invoice serves as your receipt.',
      ],
      rng.int(1, 3),
    )
    .join(' ');
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
    'seller_phone',
    [
      "What is the seller's phone number?",
      'Telephone',
      'Phone number of the company that issued the invoice',
    ],
    sellerTel,
    at.sellerTel,
  );
  q.text(
    'seller_website',
    ['Which website does the seller give?', 'Website', 'Web address of the issuer'],
    sellerSite,
    at.sellerSite,
  );
  q.text(
    'invoice_no',
    [
      'What is the invoice number?',
      'Invoice no.',
      'Which reference number identifies this invoice?',
      'Give the invoice reference.',
      // A fallback the document does not need: it has an invoice number beside its order refs.
      'What is the invoice number? If the document has no invoice number, give its order reference.',
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
  q.stated(
    'po_given',
    [
      'Does the invoice give a purchase order number?',
      'Is a PO number stated on the invoice?',
      'Is there a purchase order reference?',
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
  q.items(
    'item_codes',
    ['List the item codes.', 'Which SKUs are billed?', 'Item numbers on the invoice'],
    codeEv,
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
  // One cell of the item table, named by its row (the item) and its column's header. Drawn from
  // a stream of its own so that the documents and the other questions stay as they were.
  const cellRng = makeRng(hashSeed('invoice-cell', seed));
  const row = cellRng.int(0, items.length - 1);
  const heads = colSets[colSet]!.map((c) => c.title);
  const col = heads.indexOf(
    cellRng.pick(heads.filter((h) => !['Description', 'Item', 'Article'].includes(h))),
  );
  const cellValue = [items[row]!.qty, items[row]!.unit, items[row]!.total][
    ['Qty', 'Quantity'].includes(heads[col]!) ? 0 : col === heads.length - 1 ? 2 : 1
  ]!;
  const desc = items[row]!.description;
  q.number(
    'line_cell',
    [
      `What is the ${heads[col]!.toLowerCase()} for ${desc}?`,
      `${desc}: ${heads[col]}`,
      `In the line items, the ${heads[col]!.toLowerCase()} of "${desc}"`,
    ],
    cellValue,
    ev(rowPages[row]!, rows[row]![col]!),
  );
  return pdfDoc('invoice', seed, producer, doc.save(), q);
}

export const invoice: Family = { name: 'invoice', generate };
