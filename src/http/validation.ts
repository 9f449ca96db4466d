import { Ajv, type ErrorObject } from 'ajv';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';

/**
 * Bodies are validated strictly (a number is not a string); query strings and path params
 * arrive as text and are coerced. Every problem is reported, not only the first. `verbose`
 * keeps each error's schema and value, from which the messages below say what is allowed.
 */
const common = {
  allErrors: true,
  removeAdditional: true,
  useDefaults: true,
  strict: false,
  verbose: true,
} as const;
const bodyAjv = new Ajv({ ...common, coerceTypes: false });
const textAjv = new Ajv({ ...common, coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

type Err = ErrorObject & FastifySchemaValidationError;

const TYPE_WORDS: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean (true or false)',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** "a string or null", "an integer". */
function typeWords(type: unknown): string {
  const types = (Array.isArray(type) ? type : [type]).map((t) => TYPE_WORDS[String(t)] ?? String(t));
  return types.length <= 1 ? (types[0] ?? 'valid') : `${types.slice(0, -1).join(', ')} or ${types.at(-1)}`;
}

/** An allowed value as a person would type it: strings bare, anything else as JSON. */
function shown(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** `body.items[2].name` from the data variable and a JSON pointer. */
function fieldOf(dataVar: string, instancePath: string | undefined): string {
  let out = dataVar;
  for (const raw of (instancePath ?? '').split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^\d+$/.test(seg) ? `[${seg}]` : `.${seg}`;
  }
  return out;
}

/**
 * What each branch of a failed anyOf allows, when every branch is a constant, an enum or a
 * bare type (TypeBox compiles a union of literals, e.g. outputType, to anyOf of const): the
 * list of allowed values. Null when a branch is more than that (a union of objects).
 */
function allowedByBranches(
  anyOf: Err,
  errs: readonly Err[],
): { allowed: string[]; branchErrors: Err[] } | null {
  const prefix = `${anyOf.schemaPath}/`;
  const branchErrors = errs.filter((e) => e !== anyOf && e.schemaPath.startsWith(prefix));
  const branches = (anyOf.schema as unknown[] | undefined) ?? [];
  const allowed: string[] = [];
  for (const [i, branch] of branches.entries()) {
    const b = (branch ?? {}) as Record<string, unknown>;
    if ('const' in b) allowed.push(shown(b.const));
    else if (Array.isArray(b.enum)) allowed.push(...b.enum.map(shown));
    else if (
      b.type !== undefined &&
      Object.keys(b).every((k) => ['type', 'description', 'title'].includes(k))
    )
      allowed.push(typeWords(b.type));
    else if (branchErrors.some((e) => e.schemaPath.startsWith(`${prefix}${i}/`))) return null;
  }
  return allowed.length > 0 ? { allowed, branchErrors } : null;
}

/** One sentence per problem, naming the field and what it allows. */
function describe(e: Err, where: string): string {
  const params = e.params as Record<string, unknown>;
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${where}.${String(params.missingProperty)} is required`;
    case 'type':
      return `${where} must be ${typeWords(params.type)}`;
    case 'const':
      return `${where} must be ${shown(params.allowedValue)}`;
    case 'enum':
      return `${where} must be one of ${(params.allowedValues as unknown[]).map(shown).join(', ')}`;
    case 'minLength':
      return params.limit === 1
        ? `${where} must not be empty`
        : `${where} must be at least ${params.limit} characters long`;
    case 'maxLength': {
      const got = typeof e.data === 'string' ? ` (it has ${[...e.data].length})` : '';
      return `${where} must be at most ${params.limit} characters long${got}`;
    }
    case 'minItems':
      return `${where} must have at least ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'maxItems':
      return `${where} must have at most ${params.limit} item${params.limit === 1 ? '' : 's'}`;
    case 'additionalProperties': {
      const known = Object.keys((parent.properties as Record<string, unknown> | undefined) ?? {});
      return `${where} has an unknown field ${String(params.additionalProperty)}${
        known.length > 0 ? `; allowed: ${known.join(', ')}` : ''
      }`;
    }
    case 'format':
      return `${where} must be a valid ${String(params.format)}`;
    case 'minimum':
    case 'maximum': {
      // "must be >= 4 (4 to 40)": the range, when the schema states both ends (not only the
      // int64/JS-safe guard every number schema gets).
      const lo = parent.minimum;
      const hi = parent.maximum;
      const stated = (n: unknown) => typeof n === 'number' && Math.abs(n) < Number.MAX_SAFE_INTEGER;
      const range = stated(lo) && stated(hi) ? ` (${lo} to ${hi})` : '';
      return `${where} ${e.message}${range}`;
    }
    default:
      // minimum, maximum ("must be >= 4"), multipleOf, pattern: ajv's words already say what is allowed.
      return `${where} ${e.message}`;
  }
}

/**
 * Issue 16 item 6, errors a person can act on: each message names the field and what it
 * allows, e.g. "body.outputType must be one of text_quote, number, date, boolean,
 * categorical, list_scalar, image, image_list; body.name must be at most 120 characters long
 * (it has 130)". Problems are joined with "; ", each once.
 */
export function formatValidationErrors(
  errs: readonly FastifySchemaValidationError[],
  dataVar: string,
): Error {
  const all = errs as readonly Err[];
  // A failed anyOf is reported once, where its first branch failed, as the values it allows.
  const oneOf = new Map<Err, string>();
  for (const e of all) {
    if (e.keyword !== 'anyOf') continue;
    const one = allowedByBranches(e, all);
    if (!one) continue;
    const message = `${fieldOf(dataVar, e.instancePath)} must be one of ${[...new Set(one.allowed)].join(', ')}`;
    for (const b of [...one.branchErrors, e]) oneOf.set(b, message);
  }
  const parts: string[] = [];
  for (const e of all) {
    const message = oneOf.get(e);
    if (message !== undefined) parts.push(message);
    else if (e.keyword !== 'anyOf') parts.push(describe(e, fieldOf(dataVar, e.instancePath)));
  }
  return new Error([...new Set(parts)].join('; '));
}
