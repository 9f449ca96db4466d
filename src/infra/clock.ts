/**
 * The one clock (issue 14): epoch milliseconds. Everything that reads the time takes a
 * `Clock` (or a `now` value read from one) so that tests can move it; this file is the only
 * place in src/ allowed to read the system time (test/clock-layering.test.ts holds it).
 */
export type Clock = () => number;

/** The real time, for production processes. */
export const systemClock: Clock = () => Date.now();
