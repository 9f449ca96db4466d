/**
 * Till receipts on an 80 mm roll: store header, items, totals, tender and a barcode. Half of
 * them are uploaded as a photograph of the printed slip.
 */
import { fitSize } from '../layout.ts';
import { type FontName, PAGE, PdfDoc, textWidth } from '../pdf-writer.ts';
import { mapRegions, photograph } from '../photo.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { barcodeRaster, logoRaster } from '../raster.ts';
import { hashSeed, makeRng } from '../rng.ts';
import {
  addMonths,
  address,
  amount,
  CURRENCY_CODES,
  type DateStyle,
  fmtDate,
  fmtMoney,
  fmtNumber,
  initialsOf,
  isoOf,
  LOCALES,
  makeId,
  moneyFormat,
  phone,
  pickCountry,
  randomDay,
  round2,
  STORE_ITEMS,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { heightFor, picture } from './common.ts';

const PAYMENT_KINDS = ['Cash', 'Credit card', 'Debit card', 'Mobile wallet', 'Gift card'];
const PRODUCERS = ['thermal', 'store', 'cafe'] as const;
const STORE_WORDS = [
  'Market',
  'Grocer',
  'Corner Shop',
  'Café',
  'Hardware',
  'Pharmacy',
  'Deli',
  'Stationers',
  'Bakery',
];
const STORE_STEMS = [
  'Maple',
  'Harbour',
  'Greenway',
  'Northside',
  'Lantern',
  'Bluebell',
  'Old Mill',
  'Kingfisher',
  'Sunrise',
  'Copper Kettle',
];

async function generate(seed: number) {
  const rng = makeRng(hashSeed('receipt', seed));
  const producer = rng.pick(PRODUCERS);
  const country = pickCountry(rng);
  const locale = LOCALES[country];
  const money = { ...moneyFormat(rng, locale), style: 'plain' as const, negative: 'minus' as const };
  const store = `${rng.pick(STORE_STEMS)} ${rng.pick(STORE_WORDS)}`;
  const addr = address(rng, country);
  const day = randomDay(rng);
  const numericStyle: DateStyle =
    country === 'US' || country === 'CA'
      ? 'mdy'
      : country === 'DE'
        ? 'dotted'
        : rng.chance(0.8)
          ? 'dmy'
          : 'iso';
  const dateText = fmtDate(day, numericStyle);
  const time = `${rng.int(7, 21)}:${String(rng.int(0, 59)).padStart(2, '0')}`;
  const receiptNo = makeId(rng, rng.pick(['####-####-####', '9#####', 'R9######', '9###/###']));
  const refund = rng.chance(0.5);
  const items = rng.sample(STORE_ITEMS, rng.int(2, refund ? 4 : 9)).map((p) => {
    const qty = rng.chance(0.25) ? rng.int(2, 4) : 1;
    const unit = amount(rng, p.price[0], p.price[1]);
    return { name: p.name, qty, unit, total: round2(qty * unit) };
  });
  const subtotal = round2(items.reduce((a, i) => a + i.total, 0));
  const taxRate = rng.chance(0.7) ? rng.pick([5, 6, 7, 8, 10, 19, 20]) : null;
  const tax = taxRate ? round2((subtotal * taxRate) / 100) : 0;
  const total = round2((subtotal + tax) * (refund ? -1 : 1));
  const kind = rng.pick(PAYMENT_KINDS);
  const last4 = kind === 'Cash' ? null : makeId(rng, '####');
  const showLast4 = last4 !== null && kind !== 'Mobile wallet' ? true : last4 !== null && rng.chance(0.5);

  const fonts: { regular: FontName; bold: FontName } =
    producer === 'thermal'
      ? { regular: 'Courier', bold: 'Courier-Bold' }
      : producer === 'store'
        ? { regular: 'Helvetica', bold: 'Helvetica-Bold' }
        : { regular: 'Times-Roman', bold: 'Times-Bold' };
  const fs = producer === 'thermal' ? 7.5 : 8.5;
  const doc = new PdfDoc();
  const W = PAGE.receipt[0];
  const page = doc.addPage(W, 2000);
  const L = 12;
  const R = W - 12;
  let y = 14;
  const at: Record<string, Ev> = {};
  const images: RegionAnswer[] = [];
  const centred = (t: string, font = fonts.regular, size = fs) => {
    page.text(W / 2, y + size, t, font, fitSize(t, font, size, R - L), { align: 'center' });
    y += size * 1.4;
  };
  const pair = (left: string, right: string, font = fonts.regular, size = fs) => {
    const room = R - L - textWidth(right, font, size) - 10;
    page.text(L, y + size, left, font, fitSize(left, font, size, room));
    page.text(R, y + size, right, font, size, { align: 'right' });
    y += size * 1.4;
  };
  const rule = () => {
    if (producer === 'thermal') centred('-'.repeat(38));
    else {
      page.line(L, y + 3, R, y + 3, 0.5);
      y += 7;
    }
  };

  // Header.
  let logo: RegionAnswer | null = null;
  if (rng.chance(0.75)) {
    const raster = logoRaster(rng, initialsOf(store) || store.slice(0, 2));
    const w = raster.width > raster.height * 1.5 ? 110 : 56;
    logo = picture(page, W / 2 - w / 2, y, w, raster);
    images.push(logo);
    y += heightFor(w, raster) + 6;
  }
  centred(producer === 'thermal' ? store.toUpperCase() : store, fonts.bold, fs + 3);
  at.store = ev(1, producer === 'thermal' ? store.toUpperCase() : store);
  for (const l of addr.lines) centred(l);
  const storeTel = phone(rng, country);
  centred(`Tel ${storeTel}`);
  at.storeTel = ev(1, storeTel);
  if (rng.chance(0.6))
    centred(
      `${country === 'AU' ? 'ABN' : country === 'US' ? 'Tax ID' : 'VAT No.'} ${makeId(rng, '9########')}`,
    );
  y += 4;
  const kindLine = refund
    ? rng.pick(['REFUND', '*** RETURN / REFUND ***', 'Refund receipt'])
    : rng.pick(['SALE', 'Sales receipt', 'TAX INVOICE']);
  centred(kindLine, fonts.bold);
  at.refund = ev(1, kindLine);
  const dateLine = rng.chance(0.5) ? `Date: ${dateText}  Time: ${time}` : `${dateText} ${time}`;
  pair(dateLine, `Reg ${rng.int(1, 9)}`);
  at.day = ev(1, dateText);
  const noLabel = rng.pick(['Receipt #', 'Receipt No.', 'Trans.', 'Bon-Nr.', 'Ticket']);
  const showNo = rng.chance(0.8);
  if (showNo) {
    pair(`${noLabel} ${receiptNo}`, `Op ${rng.int(10, 99)}`);
    at.no = ev(1, receiptNo);
  }
  rule();

  // Items.
  const num = (v: number) => fmtNumber(v, money.separators);
  const itemEv: Ev[] = [];
  for (const it of items) {
    if (producer === 'cafe') {
      pair(`${it.qty} ${it.name}`, num(it.total));
    } else {
      pair(producer === 'thermal' ? it.name.toUpperCase() : it.name, num(it.total));
      if (it.qty > 1) pair(`  ${it.qty} x ${num(it.unit)}`, '');
    }
    itemEv.push(ev(1, producer === 'thermal' ? it.name.toUpperCase() : it.name));
  }
  rule();
  pair(rng.pick(['Subtotal', 'SUBTOTAL', 'Sub-total']), num(refund ? -subtotal : subtotal));
  if (taxRate) {
    const t = num(refund ? -tax : tax);
    pair(
      `${country === 'US' || country === 'CA' ? 'Sales tax' : country === 'AU' ? 'GST' : 'VAT'} ${taxRate}%`,
      t,
    );
    at.tax = ev(1, t);
  }
  const totalText = fmtMoney(total, { ...money, style: rng.pick(['symbol', 'code'] as const) });
  pair(refund ? 'TOTAL REFUND' : 'TOTAL', totalText, fonts.bold, fs + 1.5);
  at.total = ev(1, totalText);
  at.currency = ev(1, totalText);

  // Tender.
  const tenderText =
    kind === 'Cash'
      ? 'CASH'
      : kind === 'Credit card'
        ? `${rng.pick(['VISA', 'MASTERCARD', 'AMEX'])} CREDIT${showLast4 ? ` ****${last4}` : ''}`
        : kind === 'Debit card'
          ? `DEBIT CARD${showLast4 ? ` ****${last4}` : ''}`
          : kind === 'Mobile wallet'
            ? `MOBILE WALLET (contactless)${showLast4 ? ` ****${last4}` : ''}`
            : `GIFT CARD${showLast4 ? ` ****${last4}` : ''}`;
  pair(tenderText, num(Math.abs(total)));
  at.kind = ev(1, tenderText);
  if (showLast4 && last4) at.last4 = ev(1, last4);
  if (kind === 'Cash' && !refund) {
    const given = Math.ceil(Math.abs(total) / 10) * 10;
    pair('Change', num(round2(given - Math.abs(total))));
  }
  if (kind !== 'Cash') pair(`Auth code ${makeId(rng, 'XXXXXX')}`, '');
  rule();
  centred(
    refund
      ? 'Refund issued to original tender'
      : rng.pick([
          'Thank you for shopping with us!',
          'Thank you - please come again',
          'Keep this receipt for returns',
        ]),
  );
  if (!refund) centred(`Returns accepted until ${fmtDate(addMonths(day, 1), numericStyle)}`);
  y += 4;
  const barcode = barcodeRaster(rng);
  const bw = 150;
  images.push(picture(page, W / 2 - bw / 2, y, bw, barcode));
  y += heightFor(bw, barcode) + 3;
  centred(makeId(rng, '############'));
  page.setHeight(y + 14);
  const pdf = doc.save();

  const photographed = rng.chance(0.5);
  let regions = images;
  let upload: { bytes: Uint8Array; mime: 'application/pdf' | 'image/jpeg'; fileName: string } | null = null;
  if (photographed) {
    const photo = await photograph(pdf, rng);
    regions = mapRegions(images, photo);
    upload = { bytes: photo.jpeg, mime: 'image/jpeg', fileName: `receipt-${seed}.jpg` };
  }
  const logoRegion = logo ? regions[images.indexOf(logo)]! : null;

  const q = new Questions();
  q.text(
    'store_phone',
    ["What is the store's telephone number?", 'Store phone', 'Tel. of the shop'],
    storeTel,
    at.storeTel,
  );
  q.text(
    'store_name',
    ['Which store issued this receipt?', 'Merchant name', 'Where was this purchase made?', 'Shop name'],
    at.store?.quote,
    at.store,
  );
  q.text(
    'receipt_ref',
    [
      'What is the receipt number?',
      'Receipt no.',
      'Transaction number on the slip',
      'What is the invoice number? If there is none (a till receipt), give the receipt or transaction number.',
    ],
    receiptNo,
    at.no,
  );
  q.date(
    'purchase_day',
    ['When was the purchase made?', 'Date of purchase', 'Transaction date'],
    isoOf(day),
    at.day,
  );
  q.number(
    'total_paid',
    ['What was the total?', 'Receipt total', 'How much was paid (or refunded) in total?', 'Total amount'],
    total,
    at.total,
  );
  q.number(
    'sales_tax',
    ['How much tax was charged?', 'Tax amount', 'VAT / sales tax on the receipt'],
    taxRate ? (refund ? -tax : tax) : null,
    at.tax,
  );
  q.category(
    'payment_kind',
    ['How was it paid?', 'Payment type', 'Which tender was used?'],
    PAYMENT_KINDS,
    kind,
    at.kind,
  );
  q.text(
    'card_last_four',
    ['Last four digits of the card', 'Card ending in', 'Which card number (last 4) was used?'],
    last4,
    at.last4,
  );
  q.category(
    'receipt_currency',
    ['Currency of the receipt', 'Which currency was used?', 'Currency code'],
    CURRENCY_CODES,
    money.currency,
    at.currency,
  );
  q.bool(
    'is_refund',
    ['Is this a refund?', 'Refund or sale? (true if refund)', 'Does this receipt record a return?'],
    refund,
    at.refund,
  );
  q.items(
    'purchased_items',
    ['What items were bought?', 'List the items on the receipt', 'Products purchased'],
    itemEv,
  );
  q.image(
    'store_logo',
    ["Where is the store's logo?", 'Shop logo', 'Logo at the top of the receipt'],
    logoRegion,
  );
  q.images(
    'receipt_graphics',
    ['All graphics on the receipt', 'Logos and barcodes', 'Find every picture or barcode'],
    regions,
  );
  const out = pdfDoc('receipt', seed, `${producer}${photographed ? '+photo' : ''}`, pdf, q);
  if (upload) {
    out.upload = upload;
    // Training and in-process evaluation read the PDF: its pictures are where the PDF draws them.
    for (const question of out.questions) {
      if (question.key === 'store_logo') question.pdfAnswer = logo ? [logo] : null;
      if (question.key === 'receipt_graphics') question.pdfAnswer = images.length ? images : null;
    }
  }
  return out;
}

export const receipt: Family = { name: 'receipt', generate };
