import type { EngineColumn } from '../types.ts';

/**
 * The JSON schema a model answers with, one per output type, in the strict subset that
 * OpenAI structured outputs accept (every property required, no additional properties,
 * null through a union) and that vLLM, Ollama and llama.cpp turn into grammars.
 * `quotes` comes first so a model writes its evidence before its answer.
 */
export interface SchemaOptions {
  /** Labels of the documents in the call when there is more than one (compositional). */
  documents: string[] | null;
  /** Ids of the pictures and pages offered to image columns. */
  candidates: string[];
}

export interface ResponseFormat {
  type: 'json_schema';
  json_schema: { name: string; strict: true; schema: Record<string, unknown> };
}

export function responseFormat(column: EngineColumn, opts: SchemaOptions): ResponseFormat {
  return {
    type: 'json_schema',
    json_schema: { name: `folio_${column.outputType}`, strict: true, schema: answerSchema(column, opts) },
  };
}

export function answerSchema(column: EngineColumn, opts: SchemaOptions): Record<string, unknown> {
  const quote: Record<string, unknown> = {
    page: { type: 'integer', description: 'The 1-based page the quote is on.' },
    quote: { type: 'string', description: 'Words copied verbatim from that page, as short as will do.' },
  };
  const quoteItem = {
    type: 'object',
    properties: opts.documents
      ? { document: { type: 'string', enum: opts.documents, description: 'The document label.' }, ...quote }
      : quote,
    required: opts.documents ? ['document', 'page', 'quote'] : ['page', 'quote'],
    additionalProperties: false,
  };
  return {
    type: 'object',
    properties: {
      quotes: {
        type: 'array',
        description: 'Verbatim evidence for the answer; empty when the answer is null.',
        items: quoteItem,
      },
      value: valueSchema(column, opts),
      confidence: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: 'How sure you are that the value is right, from 0 to 1.',
      },
    },
    required: ['quotes', 'value', 'confidence'],
    additionalProperties: false,
  };
}

function valueSchema(column: EngineColumn, opts: SchemaOptions): Record<string, unknown> {
  switch (column.outputType) {
    case 'text_quote':
      return { type: ['string', 'null'], description: 'Short text from the document, or null.' };
    case 'number':
      return {
        type: ['number', 'null'],
        description: 'A plain JSON number (no units, no thousands separators), or null.',
      };
    case 'date':
      return {
        anyOf: [{ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, { type: 'null' }],
        description: 'An ISO date YYYY-MM-DD, or null.',
      };
    case 'boolean':
      return { type: ['boolean', 'null'], description: 'true for yes, false for no, null if not stated.' };
    case 'categorical':
      return {
        anyOf: [{ type: 'string', enum: column.config?.categories ?? [] }, { type: 'null' }],
        description: 'Exactly one of the categories, or null.',
      };
    case 'list_scalar':
      return {
        type: 'array',
        items: { type: 'string' },
        description: 'Every item the document gives, each as short text; empty if none.',
      };
    case 'image':
    case 'image_list':
      return {
        type: 'array',
        description:
          column.outputType === 'image'
            ? 'The one picture or page that best answers, as a list of one; empty if none fits.'
            : 'Every picture or page that answers; empty if none fits.',
        items: {
          type: 'object',
          properties: {
            candidate: { type: 'string', enum: opts.candidates, description: 'The id of a candidate.' },
            caption: { type: 'string', description: 'What the picture shows, in a few words.' },
          },
          required: ['candidate', 'caption'],
          additionalProperties: false,
        },
      };
  }
}
