import {
  addBundleFiles,
  archiveBundle,
  createBundle,
  getBundle,
  listWorkspaceBundles,
  patchBundle,
  patchBundleMember,
  removeBundleMember,
} from '../../../domain/bundles.ts';
import type { App, AppContext } from '../../context.ts';
import { Body, Envelope, EpochMs, Id, Nullable, ok, Type } from '../../schema.ts';
import { keySecurity, WorkspaceParams } from '../tables/schemas.ts';

const BundleSchema = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  color: Nullable(Type.String()),
  documentsVersion: Type.Integer(),
  archivedAt: Nullable(EpochMs),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});
const MemberSchema = Type.Object({
  fileId: Type.String(),
  isPrimary: Type.Boolean(),
  role: Nullable(Type.String()),
  effectiveAt: Nullable(EpochMs),
  sortOrder: Type.Integer(),
  createdAt: EpochMs,
  updatedAt: EpochMs,
});
const WithFiles = Type.Object({ bundle: BundleSchema, files: Type.Array(MemberSchema) });
const BundleParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  bundleId: Type.String({ maxLength: 80 }),
});
const MemberParams = Type.Object({
  workspaceId: Type.String({ maxLength: 80 }),
  bundleId: Type.String({ maxLength: 80 }),
  fileId: Type.String({ maxLength: 80 }),
});
const Name = Type.String({ minLength: 1, maxLength: 120 });
const Color = Nullable(Type.String({ maxLength: 16 }));
const Role = Nullable(Type.String({ maxLength: 120 }));
const FileIds = (min: number) => Type.Array(Id('ds'), { minItems: min, maxItems: 15 });

const base = '/v2/workspaces/:workspaceId/bundles';

/** interface.md 4.5. */
export function registerBundleRoutes(app: App, ctx: AppContext): void {
  const tags = ['bundles'];
  const read = { access: 'read' as const };
  const write = { access: 'read_write' as const };
  const security = keySecurity;

  app.get(
    base,
    {
      config: read,
      schema: {
        tags,
        security,
        summary: 'Bundles, without members',
        params: WorkspaceParams,
        response: { 200: Envelope(Type.Array(BundleSchema)) },
      },
    },
    async (request) => ok(await listWorkspaceBundles(ctx.db, request.params.workspaceId)),
  );

  app.get(
    `${base}/:bundleId`,
    {
      config: read,
      schema: {
        tags,
        security,
        summary: 'A bundle and its members',
        params: BundleParams,
        response: { 200: Envelope(WithFiles) },
      },
    },
    async (request) => ok(await getBundle(ctx.db, request.params.workspaceId, request.params.bundleId)),
  );

  app.post(
    base,
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Create a bundle; the first file is primary, files take sortOrder in the order given',
        params: WorkspaceParams,
        body: Body({ name: Name, fileIds: Type.Optional(FileIds(0)), color: Type.Optional(Color) }),
        response: { 200: Envelope(BundleSchema) },
      },
    },
    async (request) => ok(await createBundle(ctx.db, request.params.workspaceId, request.body)),
  );

  app.post(
    `${base}/:bundleId/files`,
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Add 1-15 files, all or nothing; documentsVersion +1 when membership changes',
        params: BundleParams,
        body: Body({
          fileIds: FileIds(1),
          isPrimary: Type.Optional(Type.Boolean({ description: 'applies to the first id only' })),
          role: Type.Optional(Role),
          effectiveAt: Type.Optional(Nullable(EpochMs)),
        }),
        response: { 200: Envelope(WithFiles) },
      },
    },
    async (request) =>
      ok(await addBundleFiles(ctx.db, request.params.workspaceId, request.params.bundleId, request.body)),
  );

  app.patch(
    `${base}/:bundleId/files/:fileId`,
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Change a member; making one primary clears the other',
        params: MemberParams,
        body: Body({
          isPrimary: Type.Optional(Type.Boolean()),
          role: Type.Optional(Role),
          effectiveAt: Type.Optional(Nullable(EpochMs)),
          sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
        }),
        response: { 200: Envelope(MemberSchema) },
      },
    },
    async (request) => {
      const { workspaceId, bundleId, fileId } = request.params;
      return ok(await patchBundleMember(ctx.db, workspaceId, bundleId, fileId, request.body));
    },
  );

  app.delete(
    `${base}/:bundleId/files/:fileId`,
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Remove a member (the file is untouched); documentsVersion +1',
        params: MemberParams,
        response: { 200: Type.Object({ success: Type.Boolean(), total: Type.Integer() }) },
      },
    },
    async (request) => {
      const { workspaceId, bundleId, fileId } = request.params;
      await removeBundleMember(ctx.db, workspaceId, bundleId, fileId);
      return { success: true, total: 1 };
    },
  );

  app.patch(
    `${base}/:bundleId`,
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Rename or recolour (no version bump)',
        params: BundleParams,
        body: Body({ name: Type.Optional(Name), color: Type.Optional(Color) }),
        response: { 200: Envelope(BundleSchema) },
      },
    },
    async (request) =>
      ok(await patchBundle(ctx.db, request.params.workspaceId, request.params.bundleId, request.body)),
  );

  app.delete(
    `${base}/:bundleId`,
    {
      config: write,
      schema: {
        tags,
        security,
        summary: 'Archive a bundle',
        params: BundleParams,
        response: { 200: Envelope(BundleSchema) },
      },
    },
    async (request) => ok(await archiveBundle(ctx.db, request.params.workspaceId, request.params.bundleId)),
  );
}
