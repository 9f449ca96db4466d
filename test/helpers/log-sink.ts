import { Writable } from 'node:stream';

/** A stream a test logger writes to, and the lines it has received (to assert what logs hold). */
export function logSink(): { sink: Writable; lines: string[] } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { sink, lines };
}
