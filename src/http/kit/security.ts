/** OpenAPI security of every route a workspace key opens (scheme `apiKey` in plugins/openapi.ts). */
export const keySecurity = [{ apiKey: [] }];
