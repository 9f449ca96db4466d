import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';
import { ROOT } from './helpers/process.ts';

const DIR = path.join(ROOT, '..', 'shared', 'corpus', 'robustness');
const manifest = JSON.parse(readFileSync(path.join(DIR, 'manifest.json'), 'utf8')) as {
  file: string;
  expectation: string;
}[];

// issue 3 acceptance: every PDF of the robustness corpus (read in place) ends SUCCESS or ERROR
// with a statusText; the service stays up; no worker thread dies unhandled.
describe('robustness corpus', () => {
  let h: Harness;
  let ws: TestWorkspace;
  const outcomes = new Map<string, { status: string; statusText: string | null; pages: number }>();

  beforeAll(async () => {
    h = await startHarness({ WORKER_CONCURRENCY: '2' }, { worker: true });
    ws = await h.workspace({ tier: 'gold', credits: 100_000 });
    const files = readdirSync(DIR).filter((f) => f.endsWith('.pdf'));
    expect(files.length).toBe(manifest.length);
    const jobs = await Promise.all(
      files.map(async (file) => {
        const r = await h.upload(ws, { file: { data: readFileSync(path.join(DIR, file)), name: file } });
        const body = (await r.json()) as { data?: { id: string; fileId: string }; error?: string };
        return { file, status: r.status, job: body.data, error: body.error };
      }),
    );
    for (const j of jobs) {
      if (j.status !== 200) {
        outcomes.set(j.file, { status: `refused ${j.status}`, statusText: j.error ?? null, pages: 0 });
        continue;
      }
      const done = await h.waitJob(ws, j.job!.id, 600_000);
      const f = await h.request('GET', `/v2/workspaces/${ws.id}/files/${j.job!.fileId}`, { key: ws.key });
      outcomes.set(j.file, {
        status: done.status as string,
        statusText: done.statusText as string | null,
        pages: f.json().data.itemCount,
      });
    }
    console.log(
      [...outcomes]
        .map(([f, o]) => `${o.status.padEnd(8)} ${String(o.pages).padStart(4)}  ${f}  ${o.statusText ?? ''}`)
        .join('\n'),
    );
  }, 900_000);
  afterAll(() => h.close());

  it('finishes every file cleanly, with a reason for every ERROR', () => {
    for (const { file } of manifest) {
      const o = outcomes.get(file)!;
      expect(['SUCCESS', 'ERROR'], file).toContain(o.status);
      if (o.status === 'ERROR') expect(o.statusText, file).toMatch(/\w{4,}/);
    }
  });

  it('meets the manifest: password-protected files say so, plain SUCCESS files succeed', () => {
    for (const { file, expectation } of manifest) {
      const o = outcomes.get(file)!;
      if (/^clean ERROR \(password required\)/.test(expectation) || /password "Hello"/.test(expectation)) {
        expect(o, file).toMatchObject({
          status: 'ERROR',
          statusText: expect.stringMatching(/password protected/),
        });
      } else if (/^SUCCESS(?! after repair| or)/.test(expectation)) {
        expect(o.status, `${file}: ${expectation} — ${o.statusText}`).toBe('SUCCESS');
        expect(o.pages, file).toBeGreaterThan(0);
      }
    }
  });

  it('stays up', async () => {
    expect((await h.request('GET', '/healthz')).statusCode).toBe(200);
  });
});
