/**
 * Prose agreements (services contracts, NDAs, leases): numbered clauses mixing the clauses
 * that carry facts with boilerplate, paginated over 2-6 pages, and a signature page.
 */
import { Flow, type Fonts, fitSize, footers } from '../layout.ts';
import { PAGE, PdfDoc } from '../pdf-writer.ts';
import { type Ev, ev, type Questions } from '../questions.ts';
import type { Rng } from '../rng.ts';
import type { RegionAnswer } from '../types.ts';
import { signatureBlock } from './common.ts';

export interface Para {
  text: string;
  /** Fact keys whose quotes are in this paragraph. */
  keys?: string[];
}

export interface Clause {
  heading: string;
  paras: Para[];
}

const BOILERPLATE: [string, string[]][] = [
  [
    'Non-Solicitation',
    [
      'During the term of this Agreement and for twelve months thereafter, neither party shall directly solicit for employment any employee of the other party who was involved in the performance of this Agreement, provided that general advertisements not targeted at such employees shall not breach this section.',
    ],
  ],
  [
    'Subcontracting',
    [
      'A party may engage subcontractors to perform any of its obligations under this Agreement, provided that it remains fully responsible for the acts and omissions of its subcontractors as if they were its own.',
      'Each subcontractor shall be bound by written obligations of confidentiality no less protective than those set out in this Agreement.',
    ],
  ],
  [
    'Warranties',
    [
      'Each party represents and warrants that it is duly organised and validly existing, that it has full power and authority to enter into this Agreement, and that the execution of this Agreement does not conflict with any other agreement to which it is a party.',
      'Except as expressly set out in this Agreement, neither party makes any warranty, express or implied, including any implied warranty of merchantability or fitness for a particular purpose.',
    ],
  ],
  [
    'Indemnification',
    [
      "Each party shall defend, indemnify and hold harmless the other party and its officers, directors and employees from and against any third-party claims, losses and expenses, including reasonable attorneys' fees, arising out of its gross negligence or wilful misconduct.",
      "The indemnified party shall give prompt written notice of any claim, allow the indemnifying party to control the defence and settlement of the claim, and provide reasonable assistance at the indemnifying party's expense.",
    ],
  ],
  [
    'Data Protection',
    [
      'To the extent that either party processes personal data on behalf of the other party, it shall do so only on documented instructions, implement appropriate technical and organisational security measures, and promptly notify the other party of any personal data breach.',
    ],
  ],
  [
    'Intellectual Property',
    [
      'Each party retains all right, title and interest in its pre-existing intellectual property. Nothing in this Agreement transfers ownership of any intellectual property except as expressly stated.',
      'Any materials developed jointly by the parties shall be owned as agreed in a separate written instrument signed by both parties.',
    ],
  ],
  [
    'Anti-Corruption',
    [
      'Neither party shall offer, give, request or accept any bribe or improper payment in connection with this Agreement, and each party shall maintain adequate procedures designed to prevent such conduct by its personnel.',
    ],
  ],
  [
    'Equitable Relief',
    [
      'Each party acknowledges that a breach of its confidentiality obligations may cause irreparable harm for which monetary damages would be an inadequate remedy, and that the other party shall be entitled to seek injunctive relief in addition to any other remedy.',
    ],
  ],
  [
    'Order of Precedence',
    [
      'In the event of any conflict between the body of this Agreement and any schedule, exhibit or purchase order, the body of this Agreement shall prevail unless the conflicting document expressly states otherwise.',
    ],
  ],
  [
    'Electronic Communications',
    [
      'The parties consent to the use of electronic communications for the administration of this Agreement, and agree that records kept in electronic form shall be admissible as evidence to the same extent as paper records.',
    ],
  ],
  [
    'Costs',
    [
      'Except as otherwise provided in this Agreement, each party shall bear its own costs and expenses incurred in connection with the negotiation, preparation and performance of this Agreement.',
    ],
  ],
  [
    'Set-Off',
    [
      'Neither party shall be entitled to set off any amount owed to it by the other party against any amount payable by it under this Agreement without the prior written consent of the other party.',
    ],
  ],

  [
    'Notices',
    [
      'All notices under this Agreement shall be in writing and shall be deemed given when delivered personally, one business day after deposit with a recognised overnight courier, or three business days after mailing by certified mail, return receipt requested.',
      'Either party may change its address for notices by giving notice of the new address to the other party in accordance with this section.',
    ],
  ],
  [
    'Severability',
    [
      'If any provision of this Agreement is held to be invalid, illegal or unenforceable, the remaining provisions shall continue in full force and effect, and the invalid provision shall be replaced by a valid provision that comes closest to the intention of the parties.',
    ],
  ],
  [
    'Entire Agreement',
    [
      'This Agreement, together with its schedules and exhibits, constitutes the entire agreement between the parties with respect to its subject matter and supersedes all prior and contemporaneous understandings, proposals and representations, whether written or oral.',
    ],
  ],
  [
    'Waiver',
    [
      'No failure or delay by either party in exercising any right under this Agreement shall operate as a waiver of that right, nor shall any single or partial exercise of any right preclude any further exercise of that or any other right.',
    ],
  ],
  [
    'Force Majeure',
    [
      'Neither party shall be liable for any failure or delay in performance caused by events beyond its reasonable control, including acts of God, flood, fire, epidemic, war, terrorism, labour disputes or failures of public utilities, provided that the affected party promptly notifies the other party and uses reasonable efforts to resume performance.',
    ],
  ],
  [
    'Independent Contractors',
    [
      'The parties are independent contractors. Nothing in this Agreement shall be construed to create a partnership, joint venture, agency or employment relationship between the parties, and neither party has authority to bind the other.',
    ],
  ],
  [
    'Counterparts',
    [
      'This Agreement may be executed in counterparts, each of which shall be deemed an original and all of which together shall constitute one and the same instrument. Signatures delivered by electronic means shall be deemed original signatures.',
    ],
  ],
  [
    'Headings',
    [
      'The headings in this Agreement are for convenience of reference only and shall not affect its interpretation.',
    ],
  ],
  [
    'Amendments',
    [
      'This Agreement may be amended or modified only by a written instrument signed by authorised representatives of both parties that expressly refers to this Agreement.',
    ],
  ],
  [
    'Further Assurances',
    [
      'Each party shall execute such further documents and take such further actions as may reasonably be required to give full effect to the terms of this Agreement.',
    ],
  ],
  [
    'Publicity',
    [
      'Neither party shall issue any press release or public announcement relating to this Agreement or use the name, logo or trademarks of the other party without the prior written consent of the other party.',
    ],
  ],
  [
    'Compliance with Laws',
    [
      'Each party shall comply with all laws, regulations and ordinances applicable to its performance under this Agreement, including applicable anti-bribery, export control and data protection laws.',
    ],
  ],
  [
    'Records and Audit',
    [
      'Each party shall maintain complete and accurate records relating to its performance under this Agreement for a period of not less than the period required by law, and shall make such records available for inspection upon reasonable prior notice.',
    ],
  ],
  [
    'Dispute Resolution',
    [
      'The parties shall attempt in good faith to resolve any dispute arising out of or relating to this Agreement through negotiation between executives who have authority to settle the dispute.',
      'If the dispute is not resolved within thirty days after written notice, either party may pursue any remedy available to it.',
    ],
  ],
  [
    'Survival',
    [
      'Any provision of this Agreement which by its nature is intended to survive termination or expiration shall so survive, including provisions relating to payment, confidentiality, indemnification and limitation of liability.',
    ],
  ],
  [
    'Interpretation',
    [
      'In this Agreement, words importing the singular include the plural and vice versa, and the words "including" and "includes" shall be deemed to be followed by the words "without limitation".',
    ],
  ],
  [
    'Third-Party Beneficiaries',
    [
      'This Agreement is for the sole benefit of the parties and their permitted successors, and nothing in it shall confer any right, benefit or remedy upon any other person.',
    ],
  ],
  [
    'Insurance',
    [
      'Each party shall maintain, at its own expense, insurance coverage of the types and in the amounts customary in its industry, and shall provide certificates of insurance upon reasonable request.',
    ],
  ],
  [
    'Cooperation',
    [
      'Each party shall cooperate with the other in good faith and shall provide such information and assistance as the other party may reasonably request in connection with the performance of this Agreement.',
    ],
  ],
  [
    'Remedies',
    [
      'Except as expressly provided otherwise, the rights and remedies provided in this Agreement are cumulative and not exclusive of any rights or remedies provided by law.',
    ],
  ],
];

/** `n` boilerplate clauses, not repeating the headings in `avoid`. */
export function boilerplate(rng: Rng, n: number, avoid: string[] = []): Clause[] {
  return rng
    .sample(
      BOILERPLATE.filter(([h]) => !avoid.includes(h)),
      n,
    )
    .map(([heading, paras]) => ({ heading, paras: paras.map((text) => ({ text })) }));
}

export interface LegalStyle {
  fonts: Fonts;
  size: number;
  numbering: 'numeric' | 'article' | 'section';
  heading: 'bold' | 'caps' | 'inline';
  letter: boolean;
}

export function legalStyle(rng: Rng): LegalStyle {
  return {
    fonts: rng.pick<Fonts>([
      { regular: 'Times-Roman', bold: 'Times-Bold' },
      { regular: 'Times-Roman', bold: 'Times-Bold' },
      { regular: 'Helvetica', bold: 'Helvetica-Bold' },
      { regular: 'Courier', bold: 'Courier-Bold' },
    ]),
    size: rng.pick([9.5, 10, 10.5, 11]),
    numbering: rng.pick(['numeric', 'article', 'section'] as const),
    heading: rng.pick(['bold', 'caps', 'inline'] as const),
    letter: rng.chance(0.6),
  };
}

const ROMAN = [
  'I',
  'II',
  'III',
  'IV',
  'V',
  'VI',
  'VII',
  'VIII',
  'IX',
  'X',
  'XI',
  'XII',
  'XIII',
  'XIV',
  'XV',
  'XVI',
  'XVII',
  'XVIII',
  'XIX',
  'XX',
  'XXI',
  'XXII',
  'XXIII',
  'XXIV',
  'XXV',
  'XXVI',
  'XXVII',
  'XXVIII',
  'XXIX',
  'XXX',
];

export interface Signer {
  party: string;
  name: string;
  title: string;
}

export interface LegalResult {
  pdf: Uint8Array;
  /** Page of each fact key. */
  pages: Map<string, number>;
  signatures: RegionAnswer[];
  signerEv: Ev[];
}

/** Asks for the agreement's title as writeLegal prints it: in capitals, on page 1. */
export function askTitle(q: Questions, key: string, prompts: string[], title: string): void {
  const printed = title.toUpperCase();
  q.text(key, prompts, printed, ev(1, printed));
}

/**
 * Writes title, preamble paragraphs, the clauses and a signature block; the page count
 * follows from the amount of text (callers size the boilerplate for 2-6 pages).
 */
export function writeLegal(
  rng: Rng,
  st: LegalStyle,
  o: {
    title: string;
    preamble: Para[];
    clauses: Clause[];
    signers: Signer[];
    witness: string;
    footer: string;
    /** A party's letterhead over the title: its name, larger than the title, then its address. */
    letterhead?: { name: string; lines: string[] };
    /**
     * A letter agreement: after the title, its date and the addressee's block, then a greeting;
     * the first signer closes the letter and the second signs under "Accepted and agreed".
     * Keys are noted on page 1 for the date line and the addressee block.
     */
    letterForm?: { date: Para; addressee: Para[]; greeting: string; closing: string; accepted: string };
  },
): LegalResult {
  const doc = new PdfDoc();
  const flow = new Flow(doc, {
    size: st.letter ? PAGE.letter : PAGE.a4,
    margins: { top: 64, bottom: 80, left: 68, right: 68 },
    fonts: st.fonts,
    fontSize: st.size,
    leading: 1.4,
  });
  const pages = new Map<string, number>();
  const note = (p: Para, page: number) => {
    for (const k of p.keys ?? []) pages.set(k, page);
  };
  if (o.letterhead) {
    flow.line(o.letterhead.name, { font: st.fonts.bold, size: st.size + 7 });
    for (const l of o.letterhead.lines) flow.line(l, { size: st.size - 1, color: 0.3 });
    flow.page.line(flow.left, flow.y + 2, flow.right, flow.y + 2, 0.6, 0.4);
    flow.space(st.size * 2);
  }
  flow.line(o.title.toUpperCase(), { font: st.fonts.bold, size: st.size + 4, align: 'center' });
  flow.space(st.size);
  if (o.letterForm) {
    const lf = o.letterForm;
    note(lf.date, flow.line(lf.date.text, { align: 'right' }));
    flow.space(st.size);
    for (const p of lf.addressee) note(p, flow.line(p.text));
    flow.space(st.size);
    flow.line(lf.greeting);
    flow.space(st.size * 0.5);
  }
  for (const p of o.preamble) note(p, flow.para(p.text));
  o.clauses.forEach((c, i) => {
    const num =
      st.numbering === 'numeric'
        ? `${i + 1}.`
        : st.numbering === 'article'
          ? `ARTICLE ${ROMAN[i]}`
          : `Section ${i + 1}.`;
    const head = st.heading === 'caps' ? `${num} ${c.heading.toUpperCase()}` : `${num} ${c.heading}`;
    if (st.heading === 'inline') {
      c.paras.forEach((p, k) => {
        note(p, flow.para(k === 0 ? `${head}. ${p.text}` : p.text, { indent: k === 0 ? 0 : 18 }));
      });
    } else {
      flow.ensure(st.size * 5);
      flow.line(head, { font: st.fonts.bold });
      c.paras.forEach((p, k) => {
        const sub = c.paras.length > 1 && st.numbering === 'numeric' ? `${i + 1}.${k + 1} ` : '';
        note(p, flow.para(`${sub}${p.text}`));
      });
    }
  });
  // Signature blocks, two per row.
  flow.para(o.witness);
  if (o.letterForm) flow.line(o.letterForm.closing);
  const signatures: RegionAnswer[] = [];
  const signerEv: Ev[] = [];
  const colW = (flow.width - 30) / 2;
  for (let i = 0; i < o.signers.length; i += 2) {
    flow.ensure(140);
    const y0 = flow.y + 6;
    let bottom = y0;
    for (let k = 0; k < 2 && i + k < o.signers.length; k++) {
      const s = o.signers[i + k]!;
      const x = flow.left + k * (colW + 30);
      const page = flow.page;
      const party =
        o.letterForm && i + k === 1
          ? `${o.letterForm.accepted} ${s.party.toUpperCase()}`
          : s.party.toUpperCase();
      page.text(x, y0 + st.size, party, st.fonts.bold, fitSize(party, st.fonts.bold, st.size, colW));
      const b = signatureBlock(page, rng, {
        x,
        y: y0 + st.size + 6,
        w: Math.min(150, colW),
        fonts: st.fonts,
        name: `Name: ${s.name}`,
        title: `Title: ${s.title}`,
        size: st.size - 0.5,
      });
      signatures.push(b.region);
      signerEv.push({ page: page.number, quote: s.name });
      bottom = Math.max(bottom, b.bottom);
    }
    flow.y = bottom + 10;
  }
  footers(flow, rng, [o.footer]);
  return { pdf: doc.save(), pages, signatures, signerEv };
}
