import { setOverride } from '../../../domain/overrides.ts';
import type { App, AppContext } from '../../context.ts';
import { CellSchema } from '../../kit/model-schemas.ts';
import { keySecurity } from '../../kit/security.ts';
import { Body, Envelope, ok, Type } from '../../schema.ts';
import { CellParams, cellBase } from './schemas.ts';

const schema = {
  tags: ['cells'],
  summary:
    'Set a human override beside the extracted value (value untouched); logs override_set with the acting key',
  description:
    'Any cell status. `value` is `{type, value}` with the column output type and a value of that type, or ' +
    'value null for "not stated": text_quote a string, number a finite number, date YYYY-MM-DD, boolean true ' +
    'or false, categorical one of `config.categories` when declared, list_scalar an array of strings. An image ' +
    'or image_list cell takes text only, `{"type": "text_quote", "value": "..."}`, which replaces the picture ' +
    'permanently; regions are refused. Cells of archived tables, columns or rows cannot be changed (400).' +
    ' Spec: interface.md 4.4.',
  security: keySecurity,
  params: CellParams,
  // Checked by the domain against the column, so that each mismatch gets its own message.
  body: Body({ value: Type.Unknown({ description: 'a JSON object {type, value}, not a string' }) }),
  response: { 200: Envelope(CellSchema) },
};

/** interface.md 4.4, 3.2. */
export function putOverrideRoute(app: App, ctx: AppContext): void {
  app.put(
    `${cellBase}/override`,
    { config: { access: 'read_write', idempotent: true }, schema },
    async (request) =>
      ok(await setOverride(ctx.db, request.params, request.body.value, request.principal!.keyId, ctx.now)),
  );
}
