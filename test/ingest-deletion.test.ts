import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepExpired } from '../src/ingest/purge.ts';
import { makeTextPdf } from './fixtures/pdf.ts';
import { type Harness, startHarness, type TestWorkspace } from './helpers/harness.ts';

// interface.md 3.4 and 4.6 (delete, bulk delete), 4.7 (links to deleted data 404), decisions.md D8 (expiry).
describe('deleting and expiring files', () => {
  let h: Harness;
  let ws: TestWorkspace;

  beforeAll(async () => {
    h = await startHarness({}, { worker: true });
    ws = await h.workspace({ credits: 100 });
  });
  afterAll(() => h.close());

  async function ingested(text: string): Promise<string> {
    const r = await h.upload(ws, {
      file: { data: await makeTextPdf([[text], [`${text} page two`]]), name: `${text}.pdf` },
    });
    const job = ((await r.json()) as { data: { id: string; fileId: string } }).data;
    expect((await h.waitJob(ws, job.id)).status).toBe('SUCCESS');
    return job.fileId;
  }
  const blobFolder = (fileId: string) =>
    path.join((h.config.blob as { rootDir: string }).rootDir, 'files', fileId);
  async function waitGone(fileId: string) {
    for (let i = 0; i < 100; i++) {
      const rows = await h.db.query('SELECT id FROM files WHERE id = $1', [fileId]);
      if (rows.length === 0) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('purge did not run');
  }

  it('makes a deleted file unreadable at once, share links included, then purges bytes and pages', async () => {
    const fileId = await ingested('alpha');
    const items = (
      await h.request('GET', `/v2/workspaces/${ws.id}/files/${fileId}/items`, { key: ws.key })
    ).json().data;
    const fileShare = (
      await h.request('GET', `/v2/workspaces/${ws.id}/files/${fileId}`, { key: ws.key })
    ).json().data.share;
    expect((await readdir(blobFolder(fileId))).length).toBeGreaterThan(0);
    const balance = (await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance;

    const del = await h.request('DELETE', `/v2/workspaces/${ws.id}/files/${fileId}`, { key: ws.key });
    expect(del.statusCode).toBe(200);
    expect(del.json().data.id).toBe(fileId);
    for (const url of [
      `/files/${fileId}`,
      `/files/${fileId}/items`,
      `/files/${fileId}/items/${items[0].id}`,
    ]) {
      expect((await h.request('GET', `/v2/workspaces/${ws.id}${url}`, { key: ws.key })).statusCode).toBe(404);
    }
    expect((await fetch(items[0].share.url)).status).toBe(404);
    expect((await fetch(fileShare.url)).status).toBe(404);
    expect(
      (await h.request('DELETE', `/v2/workspaces/${ws.id}/files/${fileId}`, { key: ws.key })).statusCode,
    ).toBe(404);
    expect((await h.admin('GET', `/admin/workspaces/${ws.id}`)).json().data.balance).toBe(balance); // no refund

    await waitGone(fileId);
    expect(await readdir(blobFolder(fileId)).catch(() => [])).toEqual([]);
    expect(await h.db.query('SELECT * FROM file_pages WHERE file_id = $1', [fileId])).toEqual([]);
    expect(await h.db.query('SELECT * FROM file_items WHERE file_id = $1', [fileId])).toEqual([]);
  });

  it('bulk-deletes all or nothing, naming the offending ids', async () => {
    const a = await ingested('bravo');
    const b = await ingested('charlie');
    const other = await h.workspace();
    const r = await h.request('DELETE', `/v2/workspaces/${ws.id}/files`, {
      key: ws.key,
      body: { fileIds: [a, 'ds_notafile0000000000000', b] },
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toContain('ds_notafile0000000000000');
    expect((await h.request('GET', `/v2/workspaces/${ws.id}/files/${a}`, { key: ws.key })).statusCode).toBe(
      200,
    );
    expect(
      (
        await h.request('DELETE', `/v2/workspaces/${other.id}/files`, {
          key: other.key,
          body: { fileIds: [a] },
        })
      ).statusCode,
    ).toBe(400);

    for (const fileIds of [
      [],
      Array.from({ length: 101 }, (_, i) => `ds_${String(i).padStart(20, '0')}`),
      ['rev_x'],
    ]) {
      expect(
        (await h.request('DELETE', `/v2/workspaces/${ws.id}/files`, { key: ws.key, body: { fileIds } }))
          .statusCode,
      ).toBe(400);
    }
    const ok = await h.request('DELETE', `/v2/workspaces/${ws.id}/files`, {
      key: ws.key,
      body: { fileIds: [a, b] },
    });
    expect(ok.json()).toEqual({ success: true, total: 2 });
    expect((await h.request('GET', `/v2/workspaces/${ws.id}/files/${b}`, { key: ws.key })).statusCode).toBe(
      404,
    );
    await waitGone(a);
    await waitGone(b);
  });

  it('treats an expired file as deleted and the sweeper removes it for good', async () => {
    const fileId = await ingested('delta');
    const live = await ingested('echo');
    await h.db.query('UPDATE files SET expires_at = $2 WHERE id = $1', [fileId, Date.now() - 1000]);
    expect(
      (await h.request('GET', `/v2/workspaces/${ws.id}/files/${fileId}`, { key: ws.key })).statusCode,
    ).toBe(404);
    expect(await sweepExpired(h.db, Date.now())).toBe(1);
    await waitGone(fileId);
    expect(
      (await h.request('GET', `/v2/workspaces/${ws.id}/files/${live}`, { key: ws.key })).statusCode,
    ).toBe(200);
  });

  it('keeps expiresInDays on the file', async () => {
    const r = await h.upload(ws, {
      file: { data: await makeTextPdf([['x']]), name: 'x.pdf' },
      expiresInDays: '2',
    });
    const job = ((await r.json()) as { data: { fileId: string } }).data;
    const f = (await h.request('GET', `/v2/workspaces/${ws.id}/files/${job.fileId}`, { key: ws.key })).json()
      .data;
    expect(Math.abs(f.expiresAt - f.createdAt - 2 * 86_400_000)).toBeLessThan(5_000);
  });
});
