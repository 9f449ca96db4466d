import { useEffect, useState } from 'react';
import type { Api, Box, Cell, Column, Region, Scalar, Typed } from './api.ts';
import { relativeDate } from './ui.tsx';

export interface ColumnConfig {
  categories?: string[];
  categoryColors?: Record<string, string>;
  dateDisplay?: 'exact' | 'relative';
  [key: string]: unknown;
}

/** The column's config string read leniently: it is passed through verbatim by the API. */
export function parseConfig(config: string | null): ColumnConfig {
  if (!config) return {};
  try {
    const c = JSON.parse(config) as unknown;
    if (typeof c !== 'object' || c === null || Array.isArray(c)) return {};
    const out = { ...(c as Record<string, unknown>) } as ColumnConfig;
    const cats = (c as { categories?: unknown }).categories;
    out.categories = Array.isArray(cats) ? cats.filter((x): x is string => typeof x === 'string') : undefined;
    const colors = (c as { categoryColors?: unknown }).categoryColors;
    if (Array.isArray(colors) && out.categories) {
      // Also accepted: colours listed in the order of the categories.
      out.categoryColors = Object.fromEntries(
        out.categories.map((cat, i) => [cat, typeof colors[i] === 'string' ? colors[i] : '']),
      );
    } else if (colors && typeof colors === 'object') {
      out.categoryColors = colors as Record<string, string>;
    } else {
      out.categoryColors = undefined;
    }
    return out;
  } catch {
    return {};
  }
}

/** Only plain colour values reach a style: names, #hex, rgb()/hsl(). */
export function safeColor(c: string | undefined): string | undefined {
  if (!c) return undefined;
  return /^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\))$/.test(c.trim())
    ? c.trim()
    : undefined;
}

/** How the app names a cell's blockReason (decisions.md D3 values). */
export function blockLabel(reason: string | null): string | null {
  if (reason === 'insufficient_credits') return 'Out of credits';
  if (reason === 'spend_cap') return 'Spend cap';
  return reason;
}

export function confidenceClass(c: number | null): string {
  if (c === null) return '';
  if (c >= 0.8) return 'conf-high';
  if (c >= 0.5) return 'conf-mid';
  return 'conf-low';
}

export function isRegions(v: Cell['value']): v is Region[] {
  return Array.isArray(v);
}

/** What the cell shows: the human override when there is one, else the extracted value. */
export function shownValue(cell: Cell): Typed | Region[] | null {
  return cell.humanOverride ?? cell.value;
}

export function ValueView(props: {
  value: Typed | Region[] | null;
  column: Column;
  api: Api;
  large?: boolean;
}) {
  const { value, column } = props;
  if (value === null || value === undefined) return <span className="muted">—</span>;
  if (isRegions(value)) {
    if (value.length === 0) return <span className="muted">no picture found</span>;
    return (
      <span className="regions">
        {value.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: regions have no id and may repeat a page.
          <RegionThumb key={`${r.fileId}-${r.page}-${i}`} region={r} api={props.api} large={props.large} />
        ))}
      </span>
    );
  }
  return <ScalarView typed={value} config={parseConfig(column.config)} />;
}

export function ScalarView(props: { typed: Typed; config: ColumnConfig }) {
  const { typed, config } = props;
  const v: Scalar = typed.value;
  if (v === null) return <span className="muted">not stated</span>;
  switch (typed.type) {
    case 'date': {
      if (typeof v !== 'string') break;
      if (config.dateDisplay === 'relative') {
        return (
          <time dateTime={v} title={v}>
            {relativeDate(v)}
          </time>
        );
      }
      return <time dateTime={v}>{v}</time>;
    }
    case 'number':
      if (typeof v === 'number') return <span className="num">{v.toLocaleString()}</span>;
      break;
    case 'boolean':
      return <span className={`chip ${v ? 'yes' : 'no'}`}>{v ? 'Yes' : 'No'}</span>;
    case 'categorical': {
      const s = String(v);
      const bg = safeColor(config.categoryColors?.[s]);
      return (
        <span className="chip cat" style={bg ? { backgroundColor: bg } : undefined}>
          {s}
        </span>
      );
    }
    case 'list_scalar':
      if (Array.isArray(v)) {
        if (v.length === 0) return <span className="muted">empty list</span>;
        return (
          <span className="chips">
            {v.map((item, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: list items may repeat.
              <span key={i} className="chip">
                {item}
              </span>
            ))}
          </span>
        );
      }
      break;
  }
  return <span>{Array.isArray(v) ? v.join(', ') : String(v)}</span>;
}

interface CachedUrl {
  url: Promise<string>;
  until: number;
}
const pageUrls = new Map<string, CachedUrl>();

/** A share link for a page image, minted once and reused while it lives (an hour, less a margin). */
export function pageImageUrl(api: Api, fileId: string, page: number): Promise<string> {
  const k = `${fileId}:${page}`;
  const hit = pageUrls.get(k);
  if (hit && hit.until > Date.now()) return hit.url;
  const url = api.pageImage(fileId, page);
  pageUrls.set(k, { url, until: Date.now() + 50 * 60_000 });
  url.catch(() => pageUrls.delete(k));
  return url;
}

export function usePageImage(api: Api, fileId: string, page: number): { url?: string; error?: unknown } {
  const [state, setState] = useState<{ url?: string; error?: unknown }>({});
  useEffect(() => {
    let live = true;
    setState({});
    pageImageUrl(api, fileId, page).then(
      (url) => live && setState({ url }),
      (error: unknown) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [api, fileId, page]);
  return state;
}

function useNaturalSize(url: string | undefined): { w: number; h: number } | null {
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  useEffect(() => {
    if (!url) return;
    const img = new Image();
    img.onload = () => setSize({ w: img.naturalWidth, h: img.naturalHeight });
    img.src = url;
  }, [url]);
  return size;
}

/**
 * A region of a page as a thumbnail clipped to its box: the page image as a background
 * scaled so the box fills the frame (no cropped file exists, interface.md 2.4).
 */
export function RegionThumb(props: { region: Region; api: Api; large?: boolean }) {
  const { region } = props;
  const { url, error } = usePageImage(props.api, region.fileId, region.page);
  const natural = useNaturalSize(url);
  const box: Box = region.box ?? [0, 0, 1, 1];
  const bw = Math.max(0.01, box[2] - box[0]);
  const bh = Math.max(0.01, box[3] - box[1]);
  const height = props.large ? 160 : 40;
  const aspect = natural ? (bw * natural.w) / (bh * natural.h) : 0.77;
  const width = Math.min(props.large ? 320 : 120, Math.max(16, height * aspect));
  const pos = (lo: number, span: number) => (span >= 0.999 ? 0 : (lo / (1 - span)) * 100);
  const title = `${region.caption || 'region'} (page ${region.page})`;
  if (error) return <span className="muted">page image unavailable</span>;
  return (
    <span
      className="region-thumb"
      title={title}
      role="img"
      aria-label={title}
      style={{
        width: `${width}px`,
        height: `${height}px`,
        backgroundImage: url ? `url("${url}")` : undefined,
        backgroundSize: `${100 / bw}% ${100 / bh}%`,
        backgroundPosition: `${pos(box[0], bw)}% ${pos(box[1], bh)}%`,
      }}
    />
  );
}
