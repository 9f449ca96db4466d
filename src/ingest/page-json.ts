/**
 * The JSON text `file_pages.words` and `.images` hold, made where the words are read (the
 * page thread, or OCR): the main thread then passes one string per page to the database
 * instead of cloning, walking and stringifying thousands of small objects.
 */
export const round4 = (v: number) => Math.round(v * 10_000) / 10_000;

type Box = readonly [number, number, number, number];

/** `[[text, xmin, ymin, xmax, ymax], …]`, boxes as fractions of the page, 4 decimals. */
export function wordsJson(words: readonly { text: string; box: Box }[]): string {
  return JSON.stringify(
    words.map((w) => [w.text, round4(w.box[0]), round4(w.box[1]), round4(w.box[2]), round4(w.box[3])]),
  );
}

/** `[{ box: [xmin, ymin, xmax, ymax] }, …]`. */
export function imagesJson(images: readonly { box: Box }[]): string {
  return JSON.stringify(images.map((x) => ({ box: x.box.map(round4) })));
}
