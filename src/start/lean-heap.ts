import v8 from 'node:v8';

/**
 * Imported first by every entry point. V8 lets a heap grow up to four times its live size
 * before a full GC when that GC looks cheap. During a 1,000-page ingest the main thread's
 * heap then held ~40 MB of garbage (page text on its way to the database) at any time.
 * Growing by 10% at most collects it sooner: bench:ingest peak 411–416 → 381–383 MB, with
 * per-page CPU unchanged within noise (--optimize-for-size got 349–373 MB but cost 12%
 * more CPU per page, most of it in the page threads' JavaScript).
 */
v8.setFlagsFromString('--heap-growing-percent=10');
