import { type FormEvent, useState } from 'react';
import { OUTPUT_TYPES, type OutputType } from '../api.ts';
import { useSession } from '../session.tsx';
import { ErrorNote, Modal } from '../ui.tsx';

const DESCRIPTIONS: Record<OutputType, string> = {
  text_quote: 'Text: a short quote or paraphrase',
  number: 'Number',
  date: 'Date (ISO YYYY-MM-DD)',
  boolean: 'Yes / no',
  categorical: 'Category: one of a fixed set',
  list_scalar: 'List of values',
  image: 'Image: one page or region',
  image_list: 'Images: several regions',
};
const PALETTE = ['#dbeafe', '#dcfce7', '#fef3c7', '#fee2e2', '#ede9fe', '#cffafe', '#fce7f3', '#e5e7eb'];

/** A new column with every output type and its config (categories, colours, date display). */
export function AddColumnDialog(props: {
  tableId: string;
  nextSortOrder: number;
  onClose: () => void;
  onAdded: () => void;
}) {
  const { api } = useSession();
  const [name, setName] = useState('');
  const [prompt, setPrompt] = useState('');
  const [outputType, setOutputType] = useState<OutputType>('text_quote');
  const [creditRate, setCreditRate] = useState(4);
  const [compositional, setCompositional] = useState(false);
  const [categories, setCategories] = useState<{ name: string; color: string }[]>([
    { name: '', color: PALETTE[0]! },
  ]);
  const [dateDisplay, setDateDisplay] = useState<'exact' | 'relative'>('exact');
  const [extra, setExtra] = useState('');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const buildConfig = (): string | null => {
    let config: Record<string, unknown> = {};
    if (extra.trim()) {
      const parsed = JSON.parse(extra) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('Extra config must be a JSON object, e.g. {"unit": "EUR"}.');
      config = parsed as Record<string, unknown>;
    }
    if (outputType === 'categorical') {
      const cats = categories.filter((c) => c.name.trim());
      if (cats.length === 0) throw new Error('A category column needs at least one category.');
      config.categories = cats.map((c) => c.name.trim());
      config.categoryColors = Object.fromEntries(cats.map((c) => [c.name.trim(), c.color]));
    }
    if (outputType === 'date') config.dateDisplay = dateDisplay;
    return Object.keys(config).length > 0 ? JSON.stringify(config) : null;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    let config: string | null;
    try {
      config = buildConfig();
    } catch (err) {
      setError(err);
      return;
    }
    setBusy(true);
    try {
      await api.call('POST', `/tables/${props.tableId}/columns`, {
        name: name.trim(),
        prompt: prompt.trim(),
        outputType,
        creditRate,
        isCompositional: compositional,
        config,
        sortOrder: props.nextSortOrder,
      });
      props.onAdded();
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  return (
    <Modal title="Add a column" onClose={props.onClose}>
      <form className="stack" onSubmit={submit} data-testid="add-column">
        <label>
          Name
          <input
            name="name"
            required
            maxLength={120}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label>
          Question asked of every row
          <textarea
            name="prompt"
            required
            maxLength={4000}
            rows={3}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
            placeholder="What is the effective date of the agreement?"
          />
        </label>
        <label>
          Answer type
          <select
            name="outputType"
            value={outputType}
            onChange={(e) => setOutputType(e.target.value as OutputType)}
          >
            {OUTPUT_TYPES.map((t) => (
              <option key={t} value={t}>
                {DESCRIPTIONS[t]}
              </option>
            ))}
          </select>
        </label>
        {outputType === 'date' && (
          <label>
            Show dates
            <select
              name="dateDisplay"
              value={dateDisplay}
              onChange={(e) => setDateDisplay(e.target.value as 'exact' | 'relative')}
            >
              <option value="exact">exactly (2021-03-03)</option>
              <option value="relative">relative to today (3 years ago)</option>
            </select>
          </label>
        )}
        {outputType === 'categorical' && (
          <fieldset>
            <legend>Categories and their colours</legend>
            {categories.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place.
              <div key={i} className="inline">
                <input
                  aria-label={`category ${i + 1}`}
                  value={c.name}
                  onChange={(e) =>
                    setCategories(categories.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))
                  }
                />
                <input
                  type="color"
                  aria-label={`colour of category ${i + 1}`}
                  value={c.color}
                  onChange={(e) =>
                    setCategories(categories.map((x, j) => (j === i ? { ...x, color: e.target.value } : x)))
                  }
                />
                <button
                  type="button"
                  className="link small"
                  onClick={() => setCategories(categories.filter((_, j) => j !== i))}
                >
                  remove
                </button>
              </div>
            ))}
            <button
              type="button"
              className="secondary small"
              onClick={() =>
                setCategories([
                  ...categories,
                  { name: '', color: PALETTE[categories.length % PALETTE.length]! },
                ])
              }
            >
              + category
            </button>
          </fieldset>
        )}
        <div className="inline">
          <label>
            Credits per cell
            <input
              name="creditRate"
              type="number"
              min={4}
              max={40}
              value={creditRate}
              onChange={(e) => setCreditRate(Number(e.target.value))}
            />
          </label>
          <label className="toggle" title="Answer across all documents of a bundle in one pass">
            <input
              type="checkbox"
              checked={compositional}
              onChange={(e) => setCompositional(e.target.checked)}
            />{' '}
            Compositional (across a bundle's documents)
          </label>
        </div>
        <details>
          <summary>More config (JSON)</summary>
          <textarea
            aria-label="extra config JSON"
            rows={3}
            value={extra}
            onChange={(e) => setExtra(e.target.value)}
            placeholder='{"note": "kept verbatim"}'
          />
        </details>
        <ErrorNote error={error} />
        <div className="buttons">
          <button type="button" className="secondary" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" disabled={busy || !name.trim() || !prompt.trim()}>
            Add column
          </button>
        </div>
      </form>
    </Modal>
  );
}
