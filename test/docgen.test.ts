/**
 * The training-document generator: every family's documents read back through the repo's
 * PDF reader with their evidence quotes on the stated pages and their picture answers on
 * image objects; all eight output types asked; the same seed gives the same bytes.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OUTPUT_TYPES } from '../src/domain/columns.ts';
import { checkDoc, iou } from '../train/generate/check.ts';
import { FAMILIES } from '../train/generate/families/index.ts';
import type { RegionAnswer } from '../train/generate/types.ts';
import { readEnginePages } from './fixtures/contract.ts';

const SEEDS = [1, 2, 3];
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('document generator', () => {
  it('has at least 14 families with distinct names', () => {
    expect(FAMILIES.length).toBeGreaterThanOrEqual(14);
    expect(new Set(FAMILIES.map((f) => f.name)).size).toBe(FAMILIES.length);
  });

  for (const family of FAMILIES) {
    it(`${family.name}: evidence and pictures match what PDFium reads`, async () => {
      for (const seed of SEEDS) {
        const doc = await family.generate(seed);
        expect(doc.family).toBe(family.name);
        const pages = await readEnginePages(doc.pdf);
        // Every quote on its page, whitespace collapsed, as the engine's citations are checked.
        for (const q of doc.questions) {
          for (const e of q.evidence) {
            const page = pages[e.page - 1];
            expect(page, `${doc.id} ${q.key} page ${e.page}`).toBeDefined();
            if (e.quote) expect(collapse(page!.text), `${doc.id} ${q.key}`).toContain(collapse(e.quote));
          }
          if (q.outputType === 'image' || q.outputType === 'image_list') {
            for (const r of (q.answer ?? []) as RegionAnswer[]) {
              expect(
                r.box.every((v) => v >= 0 && v <= 1),
                `${doc.id} ${q.key} box`,
              ).toBe(true);
              if (doc.upload.mime !== 'application/pdf') continue;
              const best = Math.max(0, ...pages[r.page - 1]!.images.map((im) => iou(im.box, r.box)));
              expect(best, `${doc.id} ${q.key} IoU`).toBeGreaterThanOrEqual(0.9);
            }
          }
        }
        expect(await checkDoc(doc)).toEqual([]);
        if (doc.upload.mime === 'image/jpeg') {
          const meta = await sharp(doc.upload.bytes).metadata();
          expect(meta.format).toBe('jpeg');
        } else {
          expect(doc.upload.bytes).toBe(doc.pdf);
        }
      }
    });

    it(`${family.name}: asks all eight output types with three prompts each`, async () => {
      for (const seed of SEEDS) {
        const doc = await family.generate(seed);
        expect(new Set(doc.questions.map((q) => q.outputType))).toEqual(new Set(OUTPUT_TYPES));
        for (const q of doc.questions) {
          expect(new Set(q.prompts).size, `${doc.id} ${q.key}`).toBeGreaterThanOrEqual(3);
          if (q.outputType === 'categorical') expect(q.config?.categories?.length).toBeGreaterThan(1);
        }
      }
    });

    it(`${family.name}: the same seed gives the same bytes`, async () => {
      const a = await family.generate(7);
      const b = await family.generate(7);
      expect(Buffer.compare(Buffer.from(a.pdf), Buffer.from(b.pdf))).toBe(0);
      expect(Buffer.compare(Buffer.from(a.upload.bytes), Buffer.from(b.upload.bytes))).toBe(0);
      expect(JSON.stringify(a.questions)).toBe(JSON.stringify(b.questions));
      const c = await family.generate(8);
      expect(Buffer.compare(Buffer.from(a.pdf), Buffer.from(c.pdf))).not.toBe(0);
    });
  }

  it('leaves some answers empty and balances yes and no', async () => {
    let nonImage = 0;
    let nulls = 0;
    let yes = 0;
    let no = 0;
    for (const family of FAMILIES) {
      for (let seed = 100; seed < 110; seed++) {
        const doc = await family.generate(seed);
        for (const q of doc.questions) {
          if (q.outputType === 'image' || q.outputType === 'image_list') continue;
          nonImage++;
          if (q.answer === null) nulls++;
          if (q.answer === true) yes++;
          if (q.answer === false) no++;
        }
      }
    }
    expect(nulls / nonImage).toBeGreaterThan(0.07);
    expect(nulls / nonImage).toBeLessThan(0.2);
    expect(yes / (yes + no)).toBeGreaterThan(0.35);
    expect(yes / (yes + no)).toBeLessThan(0.65);
  });
});
