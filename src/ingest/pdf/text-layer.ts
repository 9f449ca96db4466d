import { type Box, PageFrame } from './page-frame.ts';
import type { Pdfium } from './pdfium.ts';

export interface Word {
  text: string;
  /** xmin, ymin, xmax, ymax as 0-1 fractions of the page as displayed, origin top-left. */
  box: Box;
}

export interface TextLayer {
  words: Word[];
  /** Words in PDFium's reading order, a newline where PDFium saw a line break. */
  text: string;
  /** Characters of the words (no whitespace or control characters): 0 means no text layer. */
  charCount: number;
}

/** PDFium marks a hyphen it removed at a line end with U+0002; the glyph is still drawn. */
const LINE_END_HYPHEN = 0x02;

/**
 * Reads one loaded page's text layer. Characters come one WASM call at a time, which is
 * cheap through the raw exports and, unlike FPDFText_GetText, keeps a 1:1 mapping from
 * character index to box even for characters outside the BMP.
 */
export function readTextLayer(pdfium: Pdfium, page: number): TextLayer {
  const x = pdfium.x;
  const textPage = x.FPDFText_LoadPage(page);
  if (!textPage) return { words: [], text: '', charCount: 0 };
  const rect = pdfium.malloc(16);
  try {
    const words = new WordCollector(new PageFrame(pdfium, page));
    const count = x.FPDFText_CountChars(textPage);
    for (let i = 0; i < count; i++) {
      let code = x.FPDFText_GetUnicode(textPage, i);
      if (x.FPDFText_IsGenerated(textPage, i) || isSpace(code)) {
        words.separate(code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029);
        continue;
      }
      if (code === LINE_END_HYPHEN) code = 0x2d;
      else if (isControl(code)) continue;
      if (!x.FPDFText_GetLooseCharBox(textPage, i, rect)) continue;
      // FS_RECTF is left, top, right, bottom.
      const f32 = pdfium.f32;
      const at = rect >> 2;
      words.add(code, f32[at]!, f32[at + 3]!, f32[at + 2]!, f32[at + 1]!);
    }
    return words.finish();
  } finally {
    pdfium.free(rect);
    x.FPDFText_ClosePage(textPage);
  }
}

/** Groups characters into words, each with the union of its characters' boxes. */
class WordCollector {
  readonly #frame: PageFrame;
  readonly #words: Word[] = [];
  readonly #parts: string[] = [];
  #charCount = 0;
  #word = '';
  #length = 0;
  #newline = false;
  // The word's box and its last character's box, in user space.
  #box = [0, 0, 0, 0];
  #last = [0, 0, 0, 0];

  constructor(frame: PageFrame) {
    this.#frame = frame;
  }

  add(code: number, left: number, bottom: number, right: number, top: number): void {
    const l = Math.min(left, right);
    const r = Math.max(left, right);
    const b = Math.min(bottom, top);
    const t = Math.max(bottom, top);
    const [ll, lb, lr, lt] = this.#last;
    // PDFium joins a line-end hyphen to the next line's first word with no separator; a
    // character overlapping the previous one on neither axis starts a new line.
    if (this.#word && !(b < lt! && t > lb!) && !(l < lr! && r > ll!)) this.separate(true);
    const box = this.#box;
    if (this.#word) {
      box[0] = Math.min(box[0]!, l);
      box[1] = Math.min(box[1]!, b);
      box[2] = Math.max(box[2]!, r);
      box[3] = Math.max(box[3]!, t);
    } else {
      this.#box = [l, b, r, t];
    }
    this.#last = [l, b, r, t];
    this.#word += String.fromCodePoint(code);
    this.#length++;
  }

  /** Ends the current word; `newline` when the gap is a line break. */
  separate(newline: boolean): void {
    if (this.#word) {
      const [l, b, r, t] = this.#box;
      const box = this.#frame.toBox(l!, b!, r!, t!);
      if (box) {
        if (this.#parts.length) this.#parts.push(this.#newline ? '\n' : ' ');
        this.#parts.push(this.#word);
        this.#words.push({ text: this.#word, box });
        this.#charCount += this.#length;
        this.#newline = false;
      }
      this.#word = '';
      this.#length = 0;
    }
    if (newline) this.#newline = true;
  }

  finish(): TextLayer {
    this.separate(false);
    return { words: this.#words, text: this.#parts.join(''), charCount: this.#charCount };
  }
}

function isSpace(code: number): boolean {
  return (
    code === 0x20 ||
    (code >= 0x09 && code <= 0x0d) ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200b) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Control characters, noncharacters, lone surrogates and values no code point has. */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0xd800 && code <= 0xdfff) ||
    code === 0xfffe ||
    code === 0xffff ||
    code > 0x10ffff
  );
}
