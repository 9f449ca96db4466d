/** Pieces shared by the families: a document's locale context, letterheads and pictures. */
import type { Box } from '../../../src/engine/types.ts';
import { FONT_SETS, type Fonts, fitSize } from '../layout.ts';
import { type FontName, type PdfPage, type Raster, textWidth } from '../pdf-writer.ts';
import { logoRaster, signatureRaster } from '../raster.ts';
import { hashSeed, makeRng, type Rng } from '../rng.ts';
import {
  type Country,
  type DateStyle,
  fmtDate,
  fmtMoney,
  initialsOf,
  LOCALES,
  type Locale,
  type MoneyFormat,
  moneyFormat,
  type SimpleDate,
} from '../text.ts';
import type { RegionAnswer } from '../types.ts';

/** One document's conventions: every date and amount in it is written the same way. */
export interface Ctx {
  rng: Rng;
  locale: Locale;
  money: MoneyFormat;
  dateStyle: DateStyle;
  fonts: Fonts;
  date(d: SimpleDate): string;
  amount(v: number): string;
}

export function makeCtx(rng: Rng, country: Country, fonts: Fonts = rng.pick(FONT_SETS)): Ctx {
  const locale = LOCALES[country];
  const money = moneyFormat(rng, locale);
  const dateStyle = rng.pick(locale.dateStyles);
  return {
    rng,
    locale,
    money,
    dateStyle,
    fonts,
    date: (d) => fmtDate(d, dateStyle),
    amount: (v) => fmtMoney(v, money),
  };
}

/** A label from a list, with or without a trailing colon. */
export function label(rng: Rng, options: string[], colon = rng.chance(0.5)): string {
  const l = rng.pick(options);
  return colon && !l.endsWith(':') && !l.endsWith('#') ? `${l}:` : l;
}

/** Paints a raster at (x, y) scaled to width `w` (keeping its aspect); returns the region. */
export function picture(
  page: PdfPage,
  x: number,
  y: number,
  w: number,
  raster: Raster,
  caption: string | null = null,
): RegionAnswer {
  const h = (w * raster.height) / raster.width;
  const box: Box = page.image(x, y, w, h, raster);
  return { page: page.number, box, caption };
}

export const heightFor = (w: number, r: Raster) => (w * r.height) / r.width;

export interface Letterhead {
  logo: RegionAnswer | null;
  /** Bottom of the letterhead, points from the top. */
  bottom: number;
}

/**
 * Slogans printed beside a company's name: a sentence in a letterhead that is nobody's name,
 * so the scorer learns a company is not whatever stands next to its logo. Several languages,
 * as sellers print them.
 */
const TAGLINES = [
  'Quality you can trust.',
  'Your partner in growth',
  'Service with a smile!',
  'We make it simple.',
  'Since 1987',
  'Built to last.',
  'Everything for a smile.',
  'Dat regelen we voor je.',
  'Gewoon goed geregeld.',
  'Wir machen das.',
  'Qualität seit 1952',
  'Toujours à votre service.',
  'La qualité avant tout',
  'Fresh ideas, delivered.',
  'Think local. Buy local.',
];

/**
 * Logo and company block at the top of a page: logo left with the text beside it, logo
 * right, or centred text under a centred logo.
 */
export function letterhead(
  page: PdfPage,
  rng: Rng,
  o: {
    company: string;
    lines: string[];
    fonts: Fonts;
    x: number;
    y: number;
    w: number;
    withLogo: boolean;
    align?: 'left' | 'right' | 'center';
    /** Only the logo: the company's name and address are printed elsewhere. */
    logoOnly?: boolean;
  },
): Letterhead {
  const align = o.align ?? rng.pick(['left', 'right', 'center'] as const);
  const raster = o.withLogo ? logoRaster(rng, initialsOf(o.company)) : null;
  const logoW = raster ? (raster.width > raster.height * 1.5 ? 110 : 56) : 0;
  const logoH = raster ? heightFor(logoW, raster) : 0;
  if (o.logoOnly) {
    if (!raster) return { logo: null, bottom: o.y };
    const x = align === 'left' ? o.x : align === 'right' ? o.x + o.w - logoW : o.x + o.w / 2 - logoW / 2;
    return { logo: picture(page, x, o.y, logoW, raster), bottom: o.y + logoH + 6 };
  }
  const nameSize = rng.pick([13, 14, 16]);
  const small = 8.5;
  // Its own stream, so documents drawn before taglines existed keep every other draw.
  const own = makeRng(hashSeed('tagline', o.company, o.lines.join('|')));
  const tagline = own.chance(0.3) ? own.pick(TAGLINES) : null;
  const tagSize = small + 1;
  let logo: RegionAnswer | null = null;
  let y = o.y;
  if (align === 'center') {
    if (raster) {
      logo = picture(page, o.x + o.w / 2 - logoW / 2, y, logoW, raster);
      y += logoH + 6;
    }
    page.text(
      o.x + o.w / 2,
      y + nameSize,
      o.company,
      o.fonts.bold,
      fitSize(o.company, o.fonts.bold, nameSize, o.w),
      {
        align: 'center',
      },
    );
    y += nameSize + 5;
    if (tagline) {
      page.text(o.x + o.w / 2, y + tagSize, tagline, o.fonts.regular, tagSize, {
        align: 'center',
      });
      y += tagSize * 1.5;
    }
    for (const l of o.lines) {
      page.text(o.x + o.w / 2, y + small, l, o.fonts.regular, small, { align: 'center', color: 0.25 });
      y += small * 1.3;
    }
    return { logo, bottom: y + 4 };
  }
  const textX = align === 'left' && raster ? o.x + logoW + 12 : o.x;
  if (raster) logo = picture(page, align === 'left' ? o.x : o.x + o.w - logoW, y, logoW, raster);
  let ty = y;
  const room = align === 'left' ? o.x + o.w - textX : o.w - logoW - 12;
  page.text(textX, ty + nameSize, o.company, o.fonts.bold, fitSize(o.company, o.fonts.bold, nameSize, room));
  ty += nameSize + 5;
  if (tagline) {
    page.text(textX, ty + tagSize, tagline, o.fonts.regular, tagSize);
    ty += tagSize * 1.5;
  }
  for (const l of o.lines) {
    page.text(textX, ty + small, l, o.fonts.regular, small, { color: 0.25 });
    ty += small * 1.3;
  }
  return { logo, bottom: Math.max(ty, y + logoH) + 6 };
}

/** A block of lines; returns the bottom. */
export function lines(
  page: PdfPage,
  x: number,
  y: number,
  texts: string[],
  font: FontName,
  size: number,
  gap = 1.3,
): number {
  for (const t of texts) {
    page.text(x, y + size, t, font, size);
    y += size * gap;
  }
  return y;
}

/** A signature picture over a rule with the signer's name (and title) under it. */
export function signatureBlock(
  page: PdfPage,
  rng: Rng,
  o: {
    x: number;
    y: number;
    w: number;
    fonts: Fonts;
    name: string;
    title?: string;
    caption?: string;
    size?: number;
  },
): { region: RegionAnswer; bottom: number } {
  const raster = signatureRaster(rng);
  const h = heightFor(o.w, raster);
  const region = picture(page, o.x, o.y, o.w, raster, o.caption ?? null);
  const s = o.size ?? 9;
  let y = o.y + h + 2;
  page.line(o.x, y, o.x + o.w, y, 0.6);
  y += 3;
  if (o.caption) {
    page.text(o.x, y + s, o.caption, o.fonts.regular, s * 0.9, { color: 0.3 });
    y += s * 1.3;
  }
  page.text(o.x, y + s, o.name, o.fonts.regular, s);
  y += s * 1.35;
  if (o.title) {
    page.text(o.x, y + s, o.title, o.fonts.regular, s);
    y += s * 1.35;
  }
  return { region, bottom: y };
}

/** Width of a string in a font (shorthand). */
export const tw = textWidth;

/** A checkbox list, ticked one marked; returns the text to cite. */
export function checkList(
  page: PdfPage,
  x: number,
  y: number,
  w: number,
  fonts: Fonts,
  size: number,
  options: string[],
  chosen: string,
  typed: boolean,
): { quote: string; bottom: number } {
  let cx = x;
  let cy = y;
  let quote = '';
  for (const o of options) {
    const on = o === chosen;
    const text = typed ? `[${on ? 'X' : ' '}] ${o}` : o;
    const width = textWidth(text, fonts.regular, size) + (typed ? 0 : size + 4);
    if (cx + width > x + w) {
      cx = x;
      cy += size * 1.7;
    }
    if (typed) page.text(cx, cy + size, text, fonts.regular, size);
    else {
      page.rect(cx, cy + 1, size, size, { stroke: 0.7 });
      if (on) page.text(cx + size / 2, cy + size * 0.9, 'X', fonts.bold, size * 0.95, { align: 'center' });
      page.text(cx + size + 4, cy + size, o, fonts.regular, size);
    }
    if (on) quote = typed ? text : `X ${o}`;
    cx += width + 16;
  }
  return { quote, bottom: cy + size * 1.8 };
}
