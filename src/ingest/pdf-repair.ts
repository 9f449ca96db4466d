import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';

/**
 * Second chance for a PDF that PDFium refuses: qpdf rewrites it with a rebuilt cross-
 * reference table and, when the user password is empty, without encryption (PDFium fails
 * some empty-password AES-256 files that viewers open). Returns false when qpdf is missing,
 * fails, times out, or needs a password.
 */
export function repairPdf(
  input: string,
  output: string,
  timeoutMs = 60_000,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(
      'qpdf',
      ['--decrypt', '--password=', input, output],
      { timeout: timeoutMs, killSignal: 'SIGKILL', signal, maxBuffer: 1024 * 1024 },
      async (err) => {
        // Exit code 3 means "done, with warnings": the usual outcome for a repaired file.
        const code = (err as (Error & { code?: number | string }) | null)?.code;
        if (err && code !== 3) return resolve(false);
        resolve(
          await stat(output).then(
            (s) => s.size > 0,
            () => false,
          ),
        );
      },
    );
  });
}
