import { clampLifetime, SHARE_DEFAULT_SECONDS, toItemView } from '../../../domain/files.ts';
import type { EmbeddingsClient } from '../../../search/embeddings.ts';
import { MAX_IMAGE_BYTES } from '../../../search/image-input.ts';
import { parseSearchBody } from '../../../search/query.ts';
import { searchPages } from '../../../search/service.ts';
import type { App, AppContext } from '../../context.ts';
import { ShareSchema } from '../../kit/file-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { signer } from '../../kit/share-signer.ts';
import { Body, Envelope, EpochMs, ok, Type } from '../../schema.ts';

const Query = Type.Union([
  Type.String({ maxLength: 4000, description: 'the question; phrase it as a question for best results' }),
  Type.Object(
    {
      text: Type.Optional(Type.String({ maxLength: 4000 })),
      image_url: Type.Optional(
        Type.String({
          maxLength: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 200,
          description: 'http(s) or base64 data URL',
        }),
      ),
    },
    { additionalProperties: false },
  ),
]);

/** A hit is a page (its `jpg` item) with v1 naming: `datasetId`, not `fileId` (interface.md 9). */
const Hit = Type.Object({
  id: Type.String(),
  datasetId: Type.String(),
  row: Type.String(),
  col: Type.Integer(),
  createdAt: EpochMs,
  share: ShareSchema,
  score: Type.Number(),
});

const schema = {
  tags: ['search'],
  summary: 'Search pages of the workspace by question and/or picture; 1 credit per request (4.9, D6)',
  description:
    'Results are pages, highest score first; no answer text is generated. Send an `idempotency-key` header to retry safely: a repeat with the same key and body within 24 hours is not charged again.' +
    ' Spec: interface.md 4.9; decisions.md D6.',
  security: keySecurity,
  headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String({ minLength: 1, maxLength: 255 })) }),
  body: Body({
    query: Query,
    datasetIds: Type.Optional(Type.Array(Type.String({ maxLength: 80 }), { maxItems: 1000 })),
    limit: Type.Optional(Type.Number({ description: 'default 10, clamped to 1-100' })),
  }),
  response: { 200: Envelope(Type.Array(Hit)) },
};

export function searchRoute(app: App, ctx: AppContext, embeddings: EmbeddingsClient | null): void {
  app.post(
    '/v1/search',
    // A base64 page picture is larger than the default 1 MB body.
    { config: { access: 'read' }, schema, bodyLimit: Math.ceil((MAX_IMAGE_BYTES * 4) / 3) + 64 * 1024 },
    async (request) => {
      const principal = request.principal!;
      const hits = await searchPages(
        {
          db: ctx.db,
          blobs: ctx.blobs,
          embeddings,
          price: ctx.config.searchPrice,
          dataDir: ctx.config.dataDir,
          log: request.log,
        },
        {
          workspaceId: principal.workspaceId,
          keyId: principal.keyId,
          idempotencyKey: request.headers['idempotency-key'] ?? null,
        },
        parseSearchBody(request.body),
        ctx.now(),
      );
      const life = clampLifetime(SHARE_DEFAULT_SECONDS);
      return ok(
        hits.map(({ item, score }) => {
          const { fileId, ...view } = toItemView(item, signer(ctx), life);
          return { ...view, datasetId: fileId, score };
        }),
      );
    },
  );
}
