import { Ajv, type ErrorObject } from 'ajv';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';

/**
 * Bodies are validated strictly (a number is not a string); query strings and path params
 * arrive as text and are coerced. Every problem is reported, not only the first.
 */
const common = { allErrors: true, removeAdditional: true, useDefaults: true, strict: false } as const;
const bodyAjv = new Ajv({ ...common, coerceTypes: false });
const textAjv = new Ajv({ ...common, coerceTypes: 'array' });

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);

/** "body.name must NOT have more than 120 characters; body.color must be string,null" */
export function formatValidationErrors(
  errs: readonly FastifySchemaValidationError[],
  dataVar: string,
): Error {
  const parts = errs
    .filter((e) => (e as ErrorObject).keyword !== 'anyOf')
    .map((e) => {
      const where = `${dataVar}${(e.instancePath ?? '').replace(/\//g, '.')}`;
      const params = e.params as Record<string, unknown>;
      if (typeof params?.missingProperty === 'string')
        return `${where}.${params.missingProperty} is required`;
      if (Array.isArray(params?.allowedValues))
        return `${where} must be one of ${params.allowedValues.join(', ')}`;
      return `${where} ${e.message}`;
    });
  return new Error([...new Set(parts)].join('; '));
}
