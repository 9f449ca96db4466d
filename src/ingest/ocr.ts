import { createRequire } from 'node:module';
import Tesseract from 'tesseract.js';

/** A word with its box as 0-1 fractions of the page image, origin top-left. */
export interface OcrWord {
  text: string;
  box: [number, number, number, number];
  confidence: number;
}

const require = createRequire(import.meta.url);
// The English model ships inside an npm package: OCR never touches the network.
const eng = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };

let workerPromise: Promise<Tesseract.Worker> | null = null;
let queue: Promise<unknown> = Promise.resolve();

/** tesseract.js runs its own worker thread; one per process is enough for scanned pages. */
function getWorker(): Promise<Tesseract.Worker> {
  workerPromise ??= Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
    langPath: eng.langPath,
    gzip: eng.gzip,
    cacheMethod: 'none',
  }).catch((err) => {
    workerPromise = null;
    throw err;
  });
  return workerPromise;
}

/** Recognises one page image (PNG/JPEG bytes); calls are serialised on the shared worker. */
export function recognize(
  image: Buffer | Uint8Array,
  width: number,
  height: number,
  /** Tells Tesseract the scale; images often carry none or a wrong one. */
  dpi = 300,
): Promise<{ words: OcrWord[]; text: string }> {
  const run = queue.then(async () => {
    const worker = await getWorker();
    await worker.setParameters({ user_defined_dpi: String(dpi) });
    const { data } = await worker.recognize(Buffer.from(image), {}, { blocks: true, text: true });
    const words: OcrWord[] = [];
    // The page text is exactly the kept words, a line per line: every quote built from
    // words is then verbatim page text (Tesseract's own text keeps words we dropped).
    const lines: string[][] = [[]];
    for (const block of data.blocks ?? []) {
      for (const para of block.paragraphs) {
        for (const line of para.lines) {
          if (lines.length && lines[lines.length - 1]!.length) lines.push([]);
          for (const w of line.words) {
            const text = w.text.trim();
            if (!text || w.confidence < 30) continue;
            lines[lines.length - 1]!.push(text);
            words.push({
              text,
              box: [w.bbox.x0 / width, w.bbox.y0 / height, w.bbox.x1 / width, w.bbox.y1 / height],
              confidence: w.confidence / 100,
            });
          }
        }
      }
    }
    return {
      words,
      text: lines
        .map((l) => l.join(' '))
        .join('\n')
        .trim(),
    };
  });
  queue = run.catch(() => {});
  return run;
}

export async function closeOcr(): Promise<void> {
  const w = workerPromise;
  workerPromise = null;
  if (w) await (await w).terminate().catch(() => {});
}
