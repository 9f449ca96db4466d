import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { Principal } from '../domain/api-keys.ts';
import type { BlobStore } from '../infra/blob/store.ts';
import type { Clock } from '../infra/clock.ts';
import type { Config } from '../infra/config.ts';
import type { Database } from '../infra/db/database.ts';

/** What every route handler may use; built once per process and passed in. */
export interface AppContext {
  readonly config: Config;
  readonly db: Database;
  readonly shareSecret: string;
  readonly blobs: BlobStore;
  /** Tells an in-process worker that new work was queued (other processes poll). */
  readonly notifyWork: () => void;
  /** The clock every time-based rule reads (epoch ms): `systemClock` in production; tests move it. */
  readonly now: Clock;
}

export type App = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** Who may call a route: nobody's key (`public`), the admin token, or a workspace key level. */
export type Access = 'public' | 'admin' | 'read' | 'read_write';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * The route honours an `Idempotency-Key` header (issue 17): a repeat with the same key and
     * request within 24 hours replays the first answer without a second effect.
     */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    principal: Principal | null;
    /** Set when this request owns an Idempotency-Key and must file its answer under it. */
    idempotency: { apiKeyId: string; key: string } | null;
  }
}
