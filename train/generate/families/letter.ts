/** Business letters: letterhead, date, recipient block, references, subject, body, signature. */
import { Flow, footers } from '../layout.ts';
import { PAGE, PdfDoc } from '../pdf-writer.ts';
import { type Ev, ev, pdfDoc, Questions } from '../questions.ts';
import { hashSeed, makeRng, type Rng } from '../rng.ts';
import {
  addDays,
  address,
  amount,
  emailFor,
  isoOf,
  JOB_TITLES,
  makeId,
  organisationName,
  people,
  personName,
  phone,
  pickCountry,
  randomDay,
  websiteFor,
} from '../text.ts';
import type { Family, RegionAnswer } from '../types.ts';
import { type Ctx, letterhead, makeCtx, signatureBlock } from './common.ts';

const LETTER_TYPES = [
  'Payment reminder',
  'Complaint',
  'Job offer',
  'Termination notice',
  'Price increase notice',
  'Thank you',
];
const PRODUCERS = ['block', 'modified-block', 'window'] as const;

interface Body {
  subject: string;
  paras: string[];
  /** The sentence holding the sum, and its printed form. */
  sum: { value: number; text: string } | null;
}

function body(
  rng: Rng,
  ctx: Ctx,
  type: string,
  o: { sender: string; recipientCo: string; account: string },
): Body {
  const v = (lo: number, hi: number, cents = true) => {
    const value = amount(rng, lo, hi, cents);
    return { value, text: ctx.amount(value) };
  };
  switch (type) {
    case 'Payment reminder': {
      const sum = v(150, 25000);
      return {
        subject: rng.pick([
          `Outstanding balance on account ${o.account}`,
          `Overdue invoices - account ${o.account}`,
          'Reminder: payment overdue',
        ]),
        paras: [
          `Our records show that the balance of ${sum.text} on your account remains unpaid, although the related invoices are now past their due dates.`,
          'If you have already arranged payment, please accept our thanks and disregard this reminder. Otherwise we would ask you to settle the balance promptly by bank transfer, quoting your account number.',
        ],
        sum,
      };
    }
    case 'Complaint': {
      const sum = v(40, 4000);
      return {
        subject: rng.pick([
          'Complaint regarding recent delivery',
          'Formal complaint: defective goods',
          'Unsatisfactory service at our premises',
        ]),
        paras: [
          `We are writing to express our dissatisfaction with the goods delivered by ${o.recipientCo} last month. Several items arrived damaged, and the replacement we were promised has not been sent.`,
          `We therefore request a refund of ${sum.text} for the damaged items, together with confirmation of the steps you will take to prevent a recurrence.`,
        ],
        sum,
      };
    }
    case 'Job offer': {
      const sum = v(28000, 180000, false);
      return {
        subject: rng.pick([
          'Offer of employment',
          'Your offer letter',
          `Offer of employment - ${rng.pick(JOB_TITLES)}`,
        ]),
        paras: [
          `Following your recent interviews, we are delighted to offer you the position of ${rng.pick(JOB_TITLES)} with ${o.sender}.`,
          `Your starting salary will be ${sum.text} per year, paid monthly, and you will be entitled to the standard benefits described in the enclosed summary.`,
        ],
        sum,
      };
    }
    case 'Termination notice': {
      const sum = v(200, 9000);
      return {
        subject: rng.pick([
          'Notice of termination of agreement',
          'Termination of our service contract',
          'Notice of non-renewal',
        ]),
        paras: [
          `In accordance with the notice provisions of our agreement, we hereby give notice that ${o.sender} will terminate the services currently provided to ${o.recipientCo}.`,
          `A final invoice of ${sum.text} will be issued for services rendered up to the termination date. Please arrange for the return of any equipment belonging to us.`,
        ],
        sum,
      };
    }
    case 'Price increase notice': {
      const sum = v(20, 2500);
      return {
        subject: rng.pick([
          'Changes to our prices',
          'Notice of price adjustment',
          'Important: new pricing from next quarter',
        ]),
        paras: [
          'Owing to increases in the cost of materials, energy and transport, we must adjust the prices of our services.',
          `From the start of next quarter your monthly subscription will be ${sum.text}. All other terms of your agreement remain unchanged.`,
        ],
        sum,
      };
    }
    default: {
      const sum = rng.chance(0.6) ? v(500, 50000) : null;
      return {
        subject: rng.pick([
          'Thank you for your support',
          'With our thanks',
          'Thank you for a successful year',
        ]),
        paras: [
          `On behalf of everyone at ${o.sender}, I would like to thank you and your colleagues at ${o.recipientCo} for your continued support.`,
          sum
            ? `Your contribution of ${sum.text} has made a real difference to the success of our programme this year.`
            : 'Your help has made a real difference to the success of our programme this year.',
        ],
        sum,
      };
    }
  }
}

const FILLER = [
  'We value our relationship with your organisation and hope to continue working together for many years to come.',
  'Should you have any questions about this letter, our customer relations team will be pleased to help you during normal business hours.',
  'For your convenience, a copy of this letter has also been sent to the email address we hold on file.',
  'We have reviewed our records carefully before writing to you and believe the information set out above to be accurate.',
  'Please keep this letter for your records, as you may need to refer to it in future correspondence.',
  'We remain committed to the high standards of service that our clients have come to expect from us.',
];

async function generate(seed: number) {
  const rng = makeRng(hashSeed('letter', seed));
  const producer = rng.pick(PRODUCERS);
  const country = pickCountry(rng, { US: 4, UK: 3 });
  const ctx = makeCtx(rng, country);
  const sender = organisationName(rng, country);
  const recipientCo = organisationName(rng, country, [sender]);
  const recipient = personName(rng);
  const signer = personName(rng, [recipient]);
  const signerTitle = rng.pick(JOB_TITLES);
  const type = rng.pick(LETTER_TYPES);
  const date = randomDay(rng);
  const account = makeId(rng, '9#####');
  const b = body(rng, ctx, type, { sender, recipientCo, account });
  const ourRef = rng.chance(0.7)
    ? makeId(rng, rng.pick(['AA/9##/{Y}', 'REF-9####', 'AA-AA-9###']).replace('{Y}', String(date.y)))
    : null;
  const response = rng.chance(0.5);
  const respondBy = addDays(date, rng.int(7, 30));
  const showBy = response && rng.chance(0.85);
  const cc = rng.chance(0.8) ? people(rng, rng.int(1, 3)).filter((p) => p !== recipient && p !== signer) : [];
  const recipAddr = address(rng, country);
  const senderAddr = address(rng, country);

  const doc = new PdfDoc();
  const size = country === 'US' || country === 'CA' ? PAGE.letter : rng.chance(0.7) ? PAGE.a4 : PAGE.letter;
  const fonts = ctx.fonts;
  const fs = rng.pick([10, 10.5, 11]);
  const flow = new Flow(doc, {
    size,
    margins: { top: 50, bottom: 80, left: 72, right: 72 },
    fonts,
    fontSize: fs,
    leading: 1.4,
    onNewPage: (f) => {
      f.page.text(
        f.left,
        f.y + fs,
        `${recipient} - ${ctx.date(date)} - page ${f.page.number}`,
        fonts.regular,
        fs - 1.5,
        { color: 0.4 },
      );
      f.y += fs * 3;
    },
  });
  const p = flow.page;
  const at: Record<string, Ev> = {};
  const graphics: RegionAnswer[] = [];
  const senderTel = phone(rng, country);
  const head = letterhead(p, rng, {
    company: sender,
    lines: [senderAddr.lines.join(', '), `${senderTel} · ${websiteFor(sender)}`],
    fonts,
    x: flow.left,
    y: flow.y,
    w: flow.width,
    withLogo: rng.chance(0.85),
  });
  at.sender = ev(1, sender);
  if (head.logo) graphics.push(head.logo);
  p.line(flow.left, head.bottom + 2, flow.right, head.bottom + 2, 0.6, 0.5);
  flow.y = head.bottom + 20;
  const dateText = ctx.date(date);
  const recipientLines = [recipient, recipientCo, ...recipAddr.lines];
  if (producer === 'window') {
    // Return address line and window block on the left, reference column on the right.
    const top = flow.y;
    p.text(flow.left, top + 7, `${sender} · ${senderAddr.lines.join(' · ')}`, fonts.regular, 6.5, {
      color: 0.4,
    });
    let y = top + 16;
    for (const l of recipientLines) {
      p.text(flow.left, y + fs, l, fonts.regular, fs);
      y += fs * 1.3;
    }
    const rx = flow.left + flow.width * 0.62;
    let ry = top;
    const refs: [string, string, string | null][] = [];
    if (ourRef) refs.push(['Our ref.', ourRef, 'ref']);
    refs.push([rng.pick(['Your ref.', 'Customer no.']), makeId(rng, '9######'), null]);
    refs.push(['Contact', signer, null]);
    refs.push(['Date', dateText, 'date']);
    for (const [l, v, k] of refs) {
      p.text(rx, ry + 7, l, fonts.regular, 7, { color: 0.4 });
      p.text(rx, ry + 7 + fs * 1.2, v, fonts.regular, fs - 0.5);
      if (k) at[k] = ev(1, v);
      ry += 7 + fs * 1.7;
    }
    p.line(8, size[1] * 0.35, 18, size[1] * 0.35, 0.5, 0.5);
    flow.y = Math.max(y, ry) + 24;
  } else {
    flow.line(dateText, { align: producer === 'modified-block' ? 'right' : 'left' });
    at.date = ev(1, dateText);
    flow.space(fs);
    for (const l of recipientLines) flow.line(l);
    flow.space(fs);
    if (ourRef) {
      const line = `${rng.pick(['Our ref:', 'Reference:', 'Ref.'])} ${ourRef}`;
      flow.line(line);
      at.ref = ev(1, ourRef);
    }
  }
  at.recipient = ev(1, recipient);
  const subjectLine = `${rng.pick(['Re: ', 'Subject: ', 'RE: ', ''])}${b.subject}`;
  flow.line(subjectLine, { font: fonts.bold });
  at.subject = ev(1, b.subject);
  flow.space(fs * 0.6);
  flow.para(`Dear ${rng.pick(['Mr.', 'Ms.', 'Dr.'])} ${recipient.split(' ').at(-1)},`);
  const paras = [...b.paras];
  const sumIdx = b.sum ? paras.findIndex((x) => x.includes(b.sum!.text)) : -1;
  const respondText = response
    ? showBy
      ? `Please respond in writing by ${ctx.date(respondBy)}.`
      : 'Please let us have your written response at your earliest convenience.'
    : 'No reply to this letter is required.';
  const fillers = rng.sample(FILLER, rng.int(1, rng.chance(0.3) ? 6 : 3));
  const all = [...paras, ...fillers, respondText];
  const order = [0, 1, ...rng.shuffle(all.slice(2, -1).map((_, i) => i + 2)), all.length - 1];
  for (const i of order) {
    const page = flow.para(all[i]!);
    if (i === sumIdx && b.sum) at.sum = ev(page, b.sum.text);
    if (i === all.length - 1) {
      at.response = ev(page, respondText.replace(/ by .*$/, '').replace(/\.$/, ''));
      if (showBy) at.by = ev(page, ctx.date(respondBy));
    }
  }
  flow.para(rng.pick(['Yours sincerely,', 'Sincerely,', 'Kind regards,', 'Yours faithfully,']));
  flow.ensure(100);
  const sig = signatureBlock(flow.page, rng, {
    x: producer === 'modified-block' ? flow.left + flow.width * 0.5 : flow.left,
    y: flow.y,
    w: 150,
    fonts,
    name: signer,
    title: `${signerTitle}, ${sender}`,
    size: fs - 0.5,
  });
  graphics.push(sig.region);
  flow.y = sig.bottom + 10;
  const ccEv: Ev[] = [];
  if (cc.length) {
    const pg = flow.line(`cc: ${cc.join('; ')}`, { size: fs - 1 });
    for (const c of cc) ccEv.push(ev(pg, c));
  }
  if (rng.chance(0.4))
    flow.line(
      `Enclosure${rng.chance(0.5) ? 's' : ''}: ${rng.pick(['statement of account', 'benefits summary', 'copy of agreement', 'price list'])}`,
      { size: fs - 1 },
    );
  const senderMail = emailFor(signer, sender);
  footers(flow, rng, [`${sender} · Registered in ${senderAddr.city} · ${senderMail}`]);

  const q = new Questions();
  q.text(
    'sender_phone',
    ['What telephone number does the sender give?', 'Phone', 'Tel. number of the writer'],
    senderTel,
    ev(1, senderTel),
  );
  q.text(
    'sender_email',
    ['What email address is given for the sender?', 'E-mail', 'Contact email of the writer'],
    senderMail,
    ev(1, senderMail),
  );
  q.text(
    'sender_company',
    ['Which company sent this letter?', 'Sender', 'From which organisation is the letter?'],
    sender,
    at.sender,
  );
  q.text(
    'addressee',
    ['Who is the letter addressed to?', 'Recipient name', 'To whom is this letter written?'],
    recipient,
    at.recipient,
  );
  q.text(
    'subject_line',
    ['What is the subject of the letter?', 'Subject / Re line', 'What is this letter about (subject line)?'],
    b.subject,
    at.subject,
  );
  q.text(
    'our_reference',
    ["What is the sender's reference?", 'Our ref.', 'Reference number quoted by the sender'],
    ourRef,
    at.ref,
  );
  q.date(
    'letter_day',
    ['When was the letter written?', 'Letter date', 'Date of this letter'],
    isoOf(date),
    at.date,
  );
  q.date(
    'respond_by',
    ['By when must the recipient respond?', 'Response deadline', 'Reply-by date'],
    showBy ? isoOf(respondBy) : null,
    at.by,
  );
  q.number(
    'stated_sum',
    [
      'What amount of money does the letter mention?',
      'Sum stated in the letter',
      'Which amount is referred to in the body?',
    ],
    b.sum?.value ?? null,
    at.sum,
  );
  q.category(
    'letter_kind',
    ['What kind of letter is this?', 'Letter type', 'Purpose of the letter'],
    LETTER_TYPES,
    type,
    at.subject,
  );
  q.bool(
    'reply_needed',
    ['Does the letter ask for a reply?', 'Response required?', 'Is the recipient asked to respond?'],
    response,
    at.response,
  );
  q.items('cc_list', ['Who is copied on the letter?', 'cc recipients', 'List the people in cc.'], ccEv);
  q.image(
    'signature',
    ['Where is the signature?', "Signer's signature", 'Signature at the end of the letter'],
    sig.region,
  );
  q.images(
    'letter_graphics',
    ['All logos and signatures', 'Every image in the letter', 'Pictures on the letter'],
    graphics,
  );
  return pdfDoc('letter', seed, producer, doc.save(), q);
}

export const letter: Family = { name: 'letter', generate };
