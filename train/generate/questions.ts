/**
 * Builds a document's questions: each answer comes with the page and verbatim text where it
 * is printed, and a fact without evidence (the producer left it out) is answered null.
 */
import type { OutputType } from '../../src/domain/columns.ts';
import type { GeneratedDoc, GeneratedQuestion, RegionAnswer } from './types.ts';

/** Where a fact is printed: 1-based page and the verbatim text. */
export interface Ev {
  page: number;
  quote: string;
}

export const ev = (page: number, quote: string): Ev => ({ page, quote });

type Maybe<T> = T | null | undefined;

export class Questions {
  readonly list: GeneratedQuestion[] = [];

  #add(
    key: string,
    outputType: OutputType,
    prompts: string[],
    answer: GeneratedQuestion['answer'],
    evidence: Ev[],
    config: GeneratedQuestion['config'] = null,
  ): void {
    if (prompts.length < 3) throw new Error(`${key}: fewer than three prompts`);
    if (this.list.some((q) => q.key === key)) throw new Error(`${key}: asked twice`);
    this.list.push({ key, outputType, prompts, config, answer, evidence });
  }

  text(key: string, prompts: string[], value: Maybe<string>, at: Maybe<Ev>): void {
    const known = value != null && at != null;
    this.#add(key, 'text_quote', prompts, known ? value : null, known ? [at] : []);
  }

  number(key: string, prompts: string[], value: Maybe<number>, at: Maybe<Ev>): void {
    const known = value != null && at != null;
    this.#add(key, 'number', prompts, known ? value : null, known ? [at] : []);
  }

  /** `iso` is YYYY-MM-DD. */
  date(key: string, prompts: string[], iso: Maybe<string>, at: Maybe<Ev>): void {
    const known = iso != null && at != null;
    this.#add(key, 'date', prompts, known ? iso : null, known ? [at] : []);
  }

  bool(key: string, prompts: string[], value: Maybe<boolean>, at: Maybe<Ev>): void {
    const known = value != null && at != null;
    this.#add(key, 'boolean', prompts, known ? value : null, known ? [at] : []);
  }

  /**
   * "Does it state a due date?": yes, citing where the value is printed, when the producer
   * printed it; no when it left the value out (no evidence: nothing on the page says so).
   */
  stated(key: string, prompts: string[], value: unknown, at: Maybe<Ev>): void {
    const known = value != null && at != null;
    this.#add(key, 'boolean', prompts, known, known ? [at] : []);
  }

  category(key: string, prompts: string[], categories: string[], value: Maybe<string>, at: Maybe<Ev>): void {
    if (value != null && !categories.includes(value)) throw new Error(`${key}: ${value} is not a category`);
    const known = value != null && at != null;
    this.#add(key, 'categorical', prompts, known ? value : null, known ? [at] : [], { categories });
  }

  /** One evidence entry per item; the answer is the items' quotes. */
  items(key: string, prompts: string[], items: Maybe<Ev[]>): void {
    const known = items != null && items.length > 0;
    this.#add(key, 'list_scalar', prompts, known ? items.map((i) => i.quote) : null, known ? items : []);
  }

  image(key: string, prompts: string[], region: Maybe<RegionAnswer>): void {
    this.#add(
      key,
      'image',
      prompts,
      region ? [region] : null,
      region ? [{ page: region.page, quote: region.caption ?? '' }] : [],
    );
  }

  images(key: string, prompts: string[], regions: RegionAnswer[]): void {
    const known = regions.length > 0;
    this.#add(
      key,
      'image_list',
      prompts,
      known ? regions : null,
      regions.map((r) => ({ page: r.page, quote: r.caption ?? '' })),
    );
  }
}

export function pdfDoc(
  family: string,
  seed: number,
  producer: string,
  pdf: Uint8Array,
  questions: Questions,
): GeneratedDoc {
  const id = `${family}-${seed}`;
  return {
    family,
    id,
    producer,
    upload: { bytes: pdf, mime: 'application/pdf', fileName: `${id}.pdf` },
    pdf,
    questions: questions.list,
  };
}
