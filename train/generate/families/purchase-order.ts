/** Purchase orders: buyer, vendor and ship-to blocks, order lines, terms and approvals. */
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
import { hashSeed, makeRng } from '../rng.ts';
import {
  addDays,
  address,
  amount,
  companyName,
  GOODS,
  isoOf,
  JOB_TITLES,
  makeId,
  personName,
  phone,
  pickCountry,
  randomDay,
  refNumber,
  round2,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { label, letterhead, lines, makeCtx, signatureBlock } from './common.ts';

const SHIP_METHODS = ['Ground', 'Air freight', 'Sea freight', 'Courier', 'Customer pickup'];
const PRODUCERS = ['grid', 'classic', 'compact'] as const;

/** How a buyer asks for the goods to be delivered, in its own words. */
const INSTRUCTIONS = [
  'Deliver to loading dock B before noon',
  'Call the site office one hour before arrival',
  'Pallets must be shrink-wrapped and labelled',
  'Use the rear entrance on the service road',
  'Leave goods with reception on the ground floor',
  'Deliver on weekdays between 8 am and 4 pm',
  'Quote the order number on every delivery note',
  'Keep refrigerated items separate from dry goods',
];

async function generate(seed: number) {
  const rng = makeRng(hashSeed('purchase_order', seed));
  const producer = rng.pick(PRODUCERS);
  const country = pickCountry(rng);
  const ctx = makeCtx(rng, country);
  const buyer = companyName(rng, country);
  const vendorCountry = rng.chance(0.8) ? country : pickCountry(rng);
  const vendor = companyName(rng, vendorCountry, [buyer]);
  const buyerAddr = address(rng, country);
  const vendorAddr = address(rng, vendorCountry, vendorCountry !== country);
  const shipAddr = rng.chance(0.5) ? buyerAddr : address(rng, country);
  const ordered = randomDay(rng);
  const deliverBy = addDays(ordered, rng.int(7, 60));
  const showDeliver = rng.chance(0.75);
  const poNo = refNumber(rng, 'po', ordered.y);
  const reqNo = makeId(rng, rng.pick(['REQ-9####', 'PR9#####']));
  const vendorNo = makeId(rng, rng.pick(['V9####', 'SUP-9###']));
  const quoteRef = rng.chance(0.5)
    ? makeId(rng, rng.pick(['Q-9####', 'QT{Y}-###'.replace('{Y}', String(ordered.y))]))
    : null;
  const contact = rng.chance(0.7) ? personName(rng) : null;
  const approver = personName(rng, contact ? [contact] : []);
  const shipVia = rng.chance(0.8) ? rng.pick(SHIP_METHODS) : null;
  const partial = rng.chance(0.5);
  const items = rng.sample(GOODS, rng.chance(0.3) ? rng.int(12, 24) : rng.int(2, 8)).map((g) => {
    const qty = rng.int(1, 60) * (rng.chance(0.3) ? 10 : 1);
    const unit = amount(rng, g.price[0], g.price[1]);
    return { ...g, qty, unitPrice: unit, total: round2(qty * unit), code: makeId(rng, 'AA-9###') };
  });
  const subtotal = round2(items.reduce((a, i) => a + i.total, 0));
  const freight = rng.chance(0.5) ? amount(rng, 20, 300) : 0;
  const taxRate = rng.chance(0.5) ? rng.pick([6, 7.5, 8, 10, 20]) : 0;
  const tax = round2(((subtotal + freight) * taxRate) / 100);
  const total = round2(subtotal + freight + tax);

  const doc = new PdfDoc();
  const size = rng.chance(0.5) ? PAGE.letter : PAGE.a4;
  const fs = rng.pick([8.5, 9, 9.5]);
  const flow = new Flow(doc, {
    size,
    margins: { top: 44, bottom: 80, left: 48, right: 48 },
    fonts: ctx.fonts,
    fontSize: fs,
  });
  const p1 = flow.page;
  const at: Record<string, Ev> = {};
  const buyerTel = phone(rng, country);
  const head = letterhead(p1, rng, {
    company: buyer,
    lines: [...buyerAddr.lines, buyerTel],
    fonts: ctx.fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width * 0.55,
    withLogo: rng.chance(0.7),
    align: 'left',
  });
  at.buyer = ev(1, buyer);
  const title = rng.pick(['PURCHASE ORDER', 'Purchase Order', 'ORDER', 'Purchase Order Form']);
  const noLabel = label(rng, ['PO Number', 'P.O. No.', 'Order No.', 'PO #', 'Purchase Order No.'], false);
  const dateLabel = label(rng, ['Order Date', 'Date', 'Date issued', 'PO Date'], false);
  const rx = flow.left + flow.width * 0.6;
  const rw = flow.width * 0.4;
  let y = flow.y;
  if (producer === 'compact') {
    p1.rect(rx, y, rw, 52, { stroke: 1, fill: 0.9 });
    p1.text(rx + rw / 2, y + 17, title.toUpperCase(), ctx.fonts.bold, 12, { align: 'center' });
    p1.text(rx + rw / 2, y + 32, noLabel, ctx.fonts.regular, 7.5, { align: 'center', color: 0.3 });
    p1.text(rx + rw / 2, y + 46, poNo, ctx.fonts.bold, 12, { align: 'center' });
    at.no = ev(1, poNo);
    y += 60;
  } else {
    p1.text(flow.right, y + 16, title, ctx.fonts.bold, 16, { align: 'right' });
    y += 26;
  }
  const meta: [string, string, string | null][] = [
    ...(producer === 'compact' ? [] : [[noLabel, poNo, 'no'] as [string, string, string]]),
    [dateLabel, ctx.date(ordered), 'date'],
    [label(rng, ['Requisition', 'Req. No.', 'Internal ref.'], false), reqNo, null],
    [label(rng, ['Vendor No.', 'Supplier ID', 'Vendor code'], false), vendorNo, null],
  ];
  if (showDeliver)
    meta.push([
      label(rng, ['Delivery Date', 'Required by', 'Deliver no later than', 'Need by'], false),
      ctx.date(deliverBy),
      'deliver',
    ]);
  if (quoteRef)
    meta.push([label(rng, ['Quote ref.', 'Your quotation', 'Quotation No.'], false), quoteRef, 'quote']);
  const style: FieldStyle = producer === 'grid' ? 'boxCorner' : producer === 'classic' ? 'right' : 'below';
  const perRow = style === 'right' ? 1 : 2;
  const gap = 6;
  const cw = (rw - (perRow - 1) * gap) / perRow;
  const fh = fieldHeight(style, fs) + 3;
  meta.forEach(([l, v, k], i) => {
    field(p1, rx + (i % perRow) * (cw + gap), y + Math.floor(i / perRow) * fh, cw, l, v, style, {
      fonts: ctx.fonts,
      size: fs,
      ruled: true,
      labelWidth: cw * 0.48,
    });
    if (k) at[k] = ev(1, v);
  });
  y = Math.max(y + Math.ceil(meta.length / perRow) * fh, head.bottom) + 14;

  // Vendor and ship-to blocks.
  const bw = (flow.width - 16) / 2;
  const blocks: [string, string[]][] = [
    [rng.pick(['VENDOR', 'Vendor', 'Supplier', 'To:']), [vendor, ...vendorAddr.lines]],
    [
      rng.pick(['SHIP TO', 'Ship to', 'Deliver to', 'Delivery address']),
      [buyer, ...(contact ? [`Attn: ${contact}`] : []), ...shipAddr.lines],
    ],
  ];
  const order = rng.chance(0.5) ? [0, 1] : [1, 0];
  let bottom = y;
  order.forEach((b, i) => {
    const [t, ls] = blocks[b]!;
    const x = flow.left + i * (bw + 16);
    if (producer === 'grid') p1.rect(x, y, bw, fs * 1.6, { stroke: 0.5, fill: 0.85 });
    p1.text(x + 4, y + fs * 1.15, t, ctx.fonts.bold, fs);
    bottom = Math.max(bottom, lines(p1, x + 4, y + fs * 1.8, ls, ctx.fonts.regular, fs));
  });
  at.vendor = ev(1, vendor);
  if (contact) at.contact = ev(1, contact);
  flow.y = bottom + 12;

  // Terms line.
  const terms: string[] = [
    `${label(rng, ['Payment terms', 'Terms'], true)} ${rng.pick(['Net 30', 'Net 45', 'Net 60', '2/10 Net 30', 'Due on receipt'])}`,
  ];
  if (shipVia) terms.push(`${label(rng, ['Ship via', 'Shipping method', 'Carrier'], true)} ${shipVia}`);
  terms.push(
    `${label(rng, ['Incoterms', 'Delivery terms'], true)} ${rng.pick(['FOB Destination', 'DAP', 'EXW', 'CIF', 'FCA'])}`,
  );
  const partialLine = partial
    ? rng.pick([
        'Partial shipments: Allowed',
        'Partial deliveries accepted',
        'Partial shipments permitted: Yes',
      ])
    : rng.pick([
        'Partial shipments: Not allowed',
        'No partial deliveries',
        'Partial shipments permitted: No',
      ]);
  const all = [...terms, partialLine];
  const rows = producer === 'classic' ? all : [all.slice(0, 2).join('    '), all.slice(2).join('    ')];
  for (const t of rows) {
    const pg = flow.line(t);
    if (shipVia && t.includes(shipVia)) at.ship = ev(pg, shipVia);
    if (t.includes(partialLine)) at.partial = ev(pg, partialLine);
  }
  // Instructions for the delivery, drawn apart from the main stream. Always printed: an order
  // without them still says how deliveries are received ("Deliveries outside receiving hours
  // will be refused"), which a reader may fairly take for one.
  const note = makeRng(hashSeed('purchase-order:instructions', seed));
  const instructions = note.pick(INSTRUCTIONS);
  const notePage = flow.line(
    `${note.pick(['Delivery instructions', 'Special instructions', 'Notes'])}: ${instructions}`,
  );
  at.instructions = ev(notePage, instructions);
  flow.space(8);

  // Items.
  const columns: Column[] = [
    { title: rng.pick(['Line', '#', 'Item']), width: 6, align: 'center' },
    { title: rng.pick(['Part No.', 'SKU', 'Code']), width: 12 },
    { title: rng.pick(['Description', 'Item description', 'Product']), width: 42 },
    { title: rng.pick(['Qty', 'Quantity', 'Qty ordered']), width: 10, align: 'right' },
    { title: 'Unit', width: 8, align: 'center' },
    { title: rng.pick(['Unit Price', 'Price', 'Unit cost']), width: 14, align: 'right' },
    { title: rng.pick(['Amount', 'Ext. Price', 'Total']), width: 14, align: 'right' },
  ];
  const plain = (v: number) => ctx.amount(v).replace(/^[^\d-(]+|[^\d)]+$/g, '');
  const itemRows = items.map((it, i) => [
    String(i + 1),
    it.code,
    it.name,
    String(it.qty),
    it.unit,
    plain(it.unitPrice),
    plain(it.total),
  ]);
  const pages = table(flow, columns, itemRows, tableStyle(rng, ctx.fonts, fs));
  const itemEv = items.map((it, i) => ev(pages[i]!, it.name));
  const sums: [string, number, boolean][] = [[rng.pick(['Subtotal', 'Merchandise total']), subtotal, false]];
  if (freight) sums.push([rng.pick(['Freight', 'Shipping & handling']), freight, false]);
  if (taxRate) sums.push([`Tax (${taxRate}%)`, tax, false]);
  sums.push([rng.pick(['TOTAL', 'Order Total', 'PO Total', 'Total amount']), total, true]);
  flow.ensure(sums.length * fs * 1.7 + 10);
  for (const [l, v, strong] of sums) {
    const f = strong ? ctx.fonts.bold : ctx.fonts.regular;
    flow.page.text(flow.left + flow.width * 0.62, flow.y + fs, l, f, fs);
    const [txt] = [ctx.amount(v)];
    flow.page.text(flow.right, flow.y + fs, txt, f, fs, { align: 'right' });
    if (strong) at.total = ev(flow.pageNo, txt);
    flow.y += fs * 1.7;
  }
  flow.space(10);
  flow.para(
    rng.pick([
      'Please confirm receipt of this order within two business days. Invoices must quote the PO number.',
      'All goods remain subject to inspection on arrival. Deliveries outside receiving hours will be refused.',
      'This order is subject to the standard terms and conditions of purchase available on request.',
    ]),
    { size: fs - 0.5 },
  );

  // Approvals.
  flow.ensure(110);
  const sigs: RegionAnswer[] = [];
  const caption = rng.pick(['Authorized signature', 'Approved by', 'Authorised by']);
  const sy = flow.y + 6;
  const a = signatureBlock(flow.page, rng, {
    x: flow.left,
    y: sy,
    w: 150,
    fonts: ctx.fonts,
    name: approver,
    title: rng.pick(JOB_TITLES),
    caption,
  });
  sigs.push(a.region);
  let sb = a.bottom;
  if (rng.chance(0.5)) {
    const v = signatureBlock(flow.page, rng, {
      x: flow.left + flow.width * 0.55,
      y: sy,
      w: 150,
      fonts: ctx.fonts,
      name: personName(rng, [approver]),
      title: `for ${vendor}`,
      caption: rng.pick(['Accepted by vendor', 'Supplier acknowledgement']),
    });
    sigs.push(v.region);
    sb = Math.max(sb, v.bottom);
  }
  flow.y = sb + 6;
  footers(flow, rng, [
    `${buyer} · ${rng.pick(['Procurement', 'Purchasing Department', 'Accounts Payable'])} · ${phone(rng, country)}`,
  ]);

  const q = new Questions();
  q.text(
    'buyer_phone',
    ["What is the ordering company's phone number?", 'Buyer telephone', 'Phone of the purchaser'],
    buyerTel,
    ev(1, buyerTel),
  );
  q.text(
    'po_no',
    [
      'What is the purchase order number?',
      'PO no.',
      'Which order number is on this PO?',
      // A fallback the document needs: it has no invoice number.
      'What is the invoice number? If there is none, give the order number.',
    ],
    poNo,
    at.no,
  );
  q.text(
    'ordering_company',
    [
      'Which company placed this order?',
      'Buyer',
      'Who is purchasing?',
      'Name of the ordering organisation',
      'Who is the buyer, not the vendor?',
    ],
    buyer,
    at.buyer,
  );
  q.text(
    'vendor_name',
    [
      'Who is the supplier?',
      'Vendor',
      'Which company is the order placed with?',
      'Which company supplies the goods (not the buyer)?',
    ],
    vendor,
    at.vendor,
  );
  q.text(
    'delivery_instructions',
    ['What are the delivery instructions?', 'Special instructions', 'Instructions for the delivery'],
    instructions,
    at.instructions,
  );
  q.text(
    'ship_street',
    ['To which street address are the goods delivered?', 'Ship-to street', 'Street of the delivery address'],
    shipAddr.lines[0],
    ev(1, shipAddr.lines[0]!),
  );
  q.text(
    'buyer_contact',
    ['Who is the contact person at the delivery address?', 'Attention', 'Contact name for the shipment'],
    contact,
    at.contact,
  );
  q.text(
    'vendor_quote',
    ["Which of the vendor's quotations does this order refer to?", 'Quote reference', 'Quotation number'],
    quoteRef,
    at.quote,
  );
  q.date('order_day', ['When was the order placed?', 'PO date', 'Order date'], isoOf(ordered), at.date);
  q.date(
    'deliver_by',
    ['By when must the goods be delivered?', 'Required delivery date', 'Delivery deadline'],
    isoOf(deliverBy),
    at.deliver,
  );
  q.number(
    'order_total',
    ['What is the total value of the order?', 'PO total', 'Total order amount'],
    total,
    at.total,
  );
  q.category(
    'ship_via',
    ['How will the goods be shipped?', 'Shipping method', 'Mode of transport'],
    SHIP_METHODS,
    shipVia,
    at.ship,
  );
  q.bool(
    'partial_ok',
    ['Are partial shipments allowed?', 'Partial deliveries OK?', 'May the vendor ship in parts?'],
    partial,
    at.partial,
  );
  q.items(
    'ordered_items',
    ['Which items are ordered?', 'List the products on the PO', 'Order line descriptions'],
    itemEv,
  );
  // A list of codes, as a certificate's policy numbers are: the entries hold digits.
  q.items(
    'item_codes',
    ['List the part numbers.', 'Which item codes are on the order?', 'Product codes ordered'],
    items.map((it, i) => ev(pages[i]!, it.code)),
  );
  q.image(
    'approver_signature',
    [
      "Where is the approver's signature?",
      'Authorising signature',
      'Signature of the person approving the PO',
    ],
    sigs[0],
  );
  q.images(
    'signatures',
    ['All signatures', 'Find every signature on the order.', 'Signatures on this document'],
    sigs,
  );
  // One cell of the item table, named by its row (the item) and its column's header, from a
  // stream of its own so that the documents and the other questions stay as they were.
  const cellRng = makeRng(hashSeed('purchase-order-cell', seed));
  const row = cellRng.int(0, items.length - 1);
  const col = cellRng.pick([3, 5, 6]);
  const it = items[row]!;
  q.number(
    'line_cell',
    [
      `What is the ${columns[col]!.title.toLowerCase()} for ${it.name}?`,
      `${it.name}: ${columns[col]!.title}`,
      `In the order lines, the ${columns[col]!.title.toLowerCase()} of "${it.name}"`,
    ],
    col === 3 ? it.qty : col === 5 ? it.unitPrice : it.total,
    ev(pages[row]!, itemRows[row]![col]!),
  );
  return pdfDoc('purchase_order', seed, producer, doc.save(), q);
}

export const purchaseOrder: Family = { name: 'purchase_order', generate };
