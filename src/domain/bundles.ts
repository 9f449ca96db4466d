import type { Clock } from '../infra/clock.ts';
import type { Database, Queryable } from '../infra/db/database.ts';
import { newId } from '../infra/ids.ts';
import { type BundleRow, type MemberRow, repos } from '../infra/repos/index.ts';
import { errors } from './errors.ts';

/** interface.md 8: a bundle holds at most 15 files. */
export const MAX_MEMBERS = 15;

export interface Bundle {
  id: string;
  workspaceId: string;
  name: string;
  color: string | null;
  documentsVersion: number;
  archivedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface Member {
  fileId: string;
  isPrimary: boolean;
  role: string | null;
  effectiveAt: number | null;
  sortOrder: number;
  createdAt: number;
  updatedAt: number;
}

export function toBundle(b: BundleRow): Bundle {
  return {
    id: b.id,
    workspaceId: b.workspace_id,
    name: b.name,
    color: b.color,
    documentsVersion: b.documents_version,
    archivedAt: b.archived_at,
    createdAt: b.created_at,
    updatedAt: b.updated_at,
  };
}

export function toMember(m: MemberRow): Member {
  return {
    fileId: m.file_id,
    isPrimary: m.is_primary,
    role: m.role,
    effectiveAt: m.effective_at,
    sortOrder: m.sort_order,
    createdAt: m.created_at,
    updatedAt: m.updated_at,
  };
}

async function liveBundle(tx: Queryable, workspaceId: string, bundleId: string): Promise<BundleRow> {
  const b = await repos(tx).bundles.findBundle(workspaceId, bundleId, { forUpdate: true });
  if (!b) throw errors.notFound('Bundle');
  if (b.archived_at !== null) throw errors.badRequest('Bundle is archived and can no longer be changed.');
  return b;
}

/** All or nothing: every id must be a readable file of this workspace (4.5). */
async function assertFiles(tx: Queryable, workspaceId: string, ids: string[], now: number): Promise<void> {
  const found = await repos(tx).bundles.existingFileIds(workspaceId, ids, now);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0)
    throw errors.badRequest(`Not files of this workspace: ${missing.join(', ')}. Nothing was written.`);
}

export async function listWorkspaceBundles(db: Database, workspaceId: string): Promise<Bundle[]> {
  return (await repos(db).bundles.listBundles(workspaceId)).map(toBundle);
}

export async function getBundle(
  db: Database,
  workspaceId: string,
  bundleId: string,
): Promise<{ bundle: Bundle; files: Member[] }> {
  const b = await repos(db).bundles.findBundle(workspaceId, bundleId);
  if (!b) throw errors.notFound('Bundle');
  return { bundle: toBundle(b), files: (await repos(db).bundles.listMembers(bundleId)).map(toMember) };
}

/** The first id becomes primary; ids take `sortOrder` in the order given. */
export async function createBundle(
  db: Database,
  workspaceId: string,
  input: { name: string; color?: string | null; fileIds?: string[] },
  clock: Clock,
): Promise<Bundle> {
  const ids = [...new Set(input.fileIds ?? [])];
  if (ids.length > MAX_MEMBERS) throw errors.badRequest(`A bundle holds at most ${MAX_MEMBERS} files.`);
  return db.transaction(async (tx) => {
    await assertFiles(tx, workspaceId, ids, clock());
    const now = clock();
    const row: BundleRow = {
      id: newId('bndl'),
      workspace_id: workspaceId,
      name: input.name,
      color: input.color ?? null,
      documents_version: 1,
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    await repos(tx).bundles.insertBundle(row);
    for (const [i, fileId] of ids.entries()) {
      await repos(tx).bundles.insertMember({
        bundle_id: row.id,
        file_id: fileId,
        is_primary: i === 0,
        role: null,
        effective_at: null,
        sort_order: i,
        created_at: now,
        updated_at: now,
      });
    }
    return toBundle(row);
  });
}

export async function addBundleFiles(
  db: Database,
  workspaceId: string,
  bundleId: string,
  input: { fileIds: string[]; isPrimary?: boolean; role?: string | null; effectiveAt?: number | null },
  clock: Clock,
): Promise<{ bundle: Bundle; files: Member[] }> {
  const ids = [...new Set(input.fileIds)];
  return db.transaction(async (tx) => {
    const b = await liveBundle(tx, workspaceId, bundleId);
    await assertFiles(tx, workspaceId, ids, clock());
    const members = await repos(tx).bundles.listMembers(bundleId);
    const present = new Set(members.map((m) => m.file_id));
    const fresh = ids.filter((id) => !present.has(id));
    if (members.length + fresh.length > MAX_MEMBERS) {
      throw errors.badRequest(
        `A bundle holds at most ${MAX_MEMBERS} files; it has ${members.length}. Nothing was written.`,
      );
    }
    if (fresh.length > 0) {
      const now = clock();
      const primaryFirst = input.isPrimary === true && fresh[0] === ids[0];
      if (primaryFirst) await repos(tx).bundles.clearPrimary(bundleId, now);
      let order = members.reduce((max, m) => Math.max(max, m.sort_order + 1), 0);
      for (const fileId of fresh) {
        await repos(tx).bundles.insertMember({
          bundle_id: bundleId,
          file_id: fileId,
          is_primary: primaryFirst && fileId === ids[0],
          role: input.role ?? null,
          effective_at: input.effectiveAt ?? null,
          sort_order: order++,
          created_at: now,
          updated_at: now,
        });
      }
      await repos(tx).bundles.updateBundle(bundleId, { documents_version: b.documents_version + 1 }, now);
    }
    const after = await repos(tx).bundles.findBundle(workspaceId, bundleId);
    return { bundle: toBundle(after!), files: (await repos(tx).bundles.listMembers(bundleId)).map(toMember) };
  });
}

export async function patchBundleMember(
  db: Database,
  workspaceId: string,
  bundleId: string,
  fileId: string,
  patch: { isPrimary?: boolean; role?: string | null; effectiveAt?: number | null; sortOrder?: number },
  clock: Clock,
): Promise<Member> {
  return db.transaction(async (tx) => {
    await liveBundle(tx, workspaceId, bundleId);
    const m = (await repos(tx).bundles.listMembers(bundleId)).find((x) => x.file_id === fileId);
    if (!m) throw errors.notFound('Bundle member');
    const now = clock();
    if (patch.isPrimary === true && !m.is_primary) await repos(tx).bundles.clearPrimary(bundleId, now);
    await repos(tx).bundles.updateMember(
      bundleId,
      fileId,
      {
        is_primary: patch.isPrimary,
        role: patch.role,
        effective_at: patch.effectiveAt,
        sort_order: patch.sortOrder,
      },
      now,
    );
    return toMember((await repos(tx).bundles.listMembers(bundleId)).find((x) => x.file_id === fileId)!);
  });
}

/** The file itself is untouched; the bundle's documentsVersion moves on. */
export async function removeBundleMember(
  db: Database,
  workspaceId: string,
  bundleId: string,
  fileId: string,
  clock: Clock,
): Promise<void> {
  await db.transaction(async (tx) => {
    const b = await liveBundle(tx, workspaceId, bundleId);
    if (!(await repos(tx).bundles.deleteMember(bundleId, fileId))) throw errors.notFound('Bundle member');
    await repos(tx).bundles.updateBundle(bundleId, { documents_version: b.documents_version + 1 }, clock());
  });
}

/** Name and color never change what the bundle holds: no version bump. */
export async function patchBundle(
  db: Database,
  workspaceId: string,
  bundleId: string,
  patch: { name?: string; color?: string | null },
  clock: Clock,
): Promise<Bundle> {
  return db.transaction(async (tx) => {
    const b = await liveBundle(tx, workspaceId, bundleId);
    const changed: Partial<BundleRow> = {};
    if (patch.name !== undefined && patch.name !== b.name) changed.name = patch.name;
    if (patch.color !== undefined && patch.color !== b.color) changed.color = patch.color;
    if (Object.keys(changed).length === 0) return toBundle(b);
    const now = clock();
    await repos(tx).bundles.updateBundle(bundleId, changed, now);
    return toBundle({ ...b, ...changed, updated_at: now });
  });
}

export async function archiveBundle(
  db: Database,
  workspaceId: string,
  bundleId: string,
  clock: Clock,
): Promise<Bundle> {
  return db.transaction(async (tx) => {
    const b = await repos(tx).bundles.findBundle(workspaceId, bundleId, { forUpdate: true });
    if (!b) throw errors.notFound('Bundle');
    if (b.archived_at !== null) return toBundle(b);
    const now = clock();
    await repos(tx).bundles.updateBundle(bundleId, { archived_at: now }, now);
    return toBundle({ ...b, archived_at: now, updated_at: now });
  });
}
