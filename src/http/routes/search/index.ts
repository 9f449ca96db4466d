import { EmbeddingsClient } from '../../../search/embeddings.ts';
import type { App, AppContext } from '../../context.ts';
import { searchRoute } from './search.ts';

/** v1 page search (interface.md 4.9, D6). */
export function registerSearchRoutes(app: App, ctx: AppContext): void {
  const embeddings = ctx.config.embeddings ? new EmbeddingsClient(ctx.config.embeddings) : null;
  searchRoute(app, ctx, embeddings);
}
