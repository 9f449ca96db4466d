/**
 * Issue 14: each route's OpenAPI entry names the section of the contract it implements, so a reader
 * of /openapi.json (or of the route file) can go straight to interface.md or decisions.md. Every
 * operation's description ends with a sentence such as "Spec: interface.md 4.3." or
 * "Spec: interface.md 4.7; decisions.md D9.", and every section it names exists in those files.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from './helpers/harness.ts';

const SPEC = {
  'interface.md': new URL('../../shared/spec/interface.md', import.meta.url),
  'decisions.md': new URL('../../shared/spec/decisions.md', import.meta.url),
};

/** Section ids from the headings: "### 4.3 v2 runs", "## 7. Errors", "## D2. Rows (extension)". */
function sectionIds(file: URL, heading: RegExp): Set<string> {
  const ids = new Set<string>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = heading.exec(line);
    if (m) ids.add(m[1]!);
  }
  return ids;
}

const known: Record<keyof typeof SPEC, Set<string>> = {
  'interface.md': sectionIds(SPEC['interface.md'], /^#{2,3} (\d{1,2}(?:\.\d{1,2})?)\.? \S/),
  'decisions.md': sectionIds(SPEC['decisions.md'], /^## (D\d{1,2})\. \S/),
};

const SENTENCE = /(?:^|\s)Spec: ([^\n]+)\.$/;
const PART = /^(interface\.md|decisions\.md) ((?:D?\d{1,2}(?:\.\d{1,2})?)(?:, D?\d{1,2}(?:\.\d{1,2})?)*)$/;

/** The sections a description names, or a reason it names none properly. */
function citedSections(description: string | undefined): { file: string; id: string }[] | string {
  const m = SENTENCE.exec(description ?? '');
  if (!m) return 'no "Spec: ..." sentence at the end of the description';
  const cited: { file: string; id: string }[] = [];
  for (const part of m[1]!.split('; ')) {
    const p = PART.exec(part);
    if (!p) return `cannot read "${part}"`;
    for (const id of p[2]!.split(', ')) cited.push({ file: p[1]!, id });
  }
  return cited;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

describe('OpenAPI entries name their spec section (issue 14)', () => {
  let h: Harness;
  let operations: { op: string; description: string | undefined }[];

  beforeAll(async () => {
    h = await startHarness();
    const doc = (await h.request('GET', '/openapi.json')).json() as {
      paths: Record<string, Record<string, { description?: string }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([url, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, op]) => ({ op: `${method.toUpperCase()} ${url}`, description: op.description })),
    );
  });
  afterAll(() => h.close());

  it('reads the section ids of both spec files', () => {
    expect(known['interface.md']).toContain('4.3');
    expect(known['interface.md']).toContain('7');
    expect(known['decisions.md']).toContain('D2');
  });

  it('finds the documented operations it checks', () => {
    expect(operations.length).toBeGreaterThan(50);
    expect(operations.map((o) => o.op)).toContain('POST /v2/workspaces/{workspaceId}/tables/{tableId}/runs');
  });

  it('every operation names at least one section, and every section it names exists', () => {
    const wrong: string[] = [];
    for (const { op, description } of operations) {
      const cited = citedSections(description);
      if (typeof cited === 'string') wrong.push(`${op}: ${cited}`);
      else
        for (const { file, id } of cited)
          if (!known[file as keyof typeof SPEC].has(id)) wrong.push(`${op}: ${file} has no section ${id}`);
    }
    expect(wrong).toEqual([]);
  });

  it('names the section of the endpoint tables for a route of each kind', () => {
    const of = (op: string) => operations.find((o) => o.op === op)?.description;
    expect(of('GET /v2/workspaces/{workspaceId}/tables')).toMatch(/Spec: interface\.md 4\.1\.$/);
    expect(of('POST /v2/workspaces/{workspaceId}/tables/{tableId}/rows')).toMatch(
      /Spec: decisions\.md D2\.$/,
    );
    expect(of('POST /admin/workspaces')).toMatch(/Spec: decisions\.md D1\.$/);
    expect(of('GET /v2/share/{fileItemId}')).toMatch(/Spec: interface\.md 4\.7; decisions\.md D9\.$/);
  });
});
