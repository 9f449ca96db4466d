import { makeTextPdf } from '../fixtures/pdf.ts';
import type { Harness, TestWorkspace } from './harness.ts';
import type { Json } from './runs.ts';

/** Calls to the key-scoped v1 API (interface.md 4.8, 4.9) of one workspace. */
export function v1(h: Harness, ws: TestWorkspace) {
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, key = ws.key) => {
    const r = await h.request(method, url, { key });
    const json = String(r.headers['content-type'] ?? '').includes('json');
    return { status: r.statusCode, body: (json ? r.json() : {}) as Json, raw: r.body };
  };
  const upload = async (
    path: '/v1/extract' | '/v1/vectorize',
    fields: Record<string, string | { data: Uint8Array; name: string }>,
    key = ws.key,
  ) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (typeof value === 'string') form.append(name, value);
      else form.append(name, new Blob([value.data]), value.name);
    }
    const r = await fetch(`${h.baseUrl}${path}`, {
      method: 'POST',
      headers: { 'x-api-key': key },
      body: form,
    });
    return { status: r.status, body: (await r.json().catch(() => ({}))) as Json };
  };
  const waitJob = async (id: string, timeoutMs = 60_000): Promise<Json> => {
    const started = Date.now();
    for (;;) {
      const r = await call('GET', `/v1/jobs/${id}`);
      if (r.status !== 200) throw new Error(`job ${id}: ${r.status} ${r.raw}`);
      if (r.body.data.status === 'SUCCESS' || r.body.data.status === 'ERROR') return r.body.data;
      if (Date.now() - started > timeoutMs) throw new Error(`job ${id} still ${r.body.data.status}`);
      await new Promise((res) => setTimeout(res, 100));
    }
  };
  return {
    call,
    upload,
    waitJob,
    /** Uploads a generated text PDF (one string per page) and waits for its job to succeed. */
    async ingest(path: '/v1/extract' | '/v1/vectorize', pages: string[], name = 'doc.pdf') {
      const r = await upload(path, { file: { data: await makeTextPdf(pages.map((p) => [p])), name } });
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
      const done = await waitJob(r.body.data.id);
      if (done.status !== 'SUCCESS') throw new Error(`job: ${JSON.stringify(done)}`);
      return { accepted: r.body.data as Json, job: done, datasetId: r.body.data.datasetId as string };
    },
    async balance(): Promise<number> {
      return (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance;
    },
  };
}
