import cliProgress from 'cli-progress';
import type { Ctx } from './io.ts';

/**
 * Progress on stderr. On a terminal (ctx.bars): cli-progress bars, redrawn in place, with
 * messages printed above them. Otherwise: no bars, no carriage returns, no escape sequences,
 * just the messages, one line each.
 */
export interface Progress {
  /** A bar of `total` units; its label and status text can change as it goes. */
  bar(label: string, total: number, unit?: string): Bar;
  /** A line above the bars (or a plain line without bars). */
  log(line: string): void;
  stop(): void;
}

export interface Bar {
  update(value: number, status?: string): void;
  setTotal(total: number): void;
  increment(status?: string): void;
  status(text: string): void;
  /** Takes the bar off the screen (it stays until then). */
  done(): void;
}

const LABEL_WIDTH = 28;

function label(text: string): string {
  const t = text.length > LABEL_WIDTH ? `…${text.slice(-(LABEL_WIDTH - 1))}` : text;
  return t.padEnd(LABEL_WIDTH);
}

const silentBar: Bar = {
  update() {},
  setTotal() {},
  increment() {},
  status() {},
  done() {},
};

export function progress(ctx: Ctx): Progress {
  if (!ctx.bars) {
    return {
      bar: () => silentBar,
      log: (line) => ctx.err(line),
      stop() {},
    };
  }
  const multi = new cliProgress.MultiBar(
    {
      stream: ctx.stderr,
      format: '{label} {bar} {percentage}% | {amount} {status}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: false,
      gracefulExit: false,
      autopadding: true,
      fps: 10,
      forceRedraw: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let stopped = false;
  return {
    bar(text, total, unit = '') {
      let value = 0;
      let max = total;
      let status = '';
      const amount = () =>
        unit === 'bytes' ? `${kb(value)}/${kb(max)}` : `${value}/${max}${unit ? ` ${unit}` : ''}`;
      const b = multi.create(Math.max(1, max), 0, { label: label(text), amount: amount(), status });
      const redraw = () => b.update(Math.min(value, Math.max(1, max)), { amount: amount(), status });
      let removed = false;
      return {
        update(v, s) {
          value = v;
          if (s !== undefined) status = s;
          redraw();
        },
        setTotal(t) {
          max = t;
          b.setTotal(Math.max(1, t));
          redraw();
        },
        increment(s) {
          value += 1;
          if (s !== undefined) status = s;
          redraw();
        },
        status(s) {
          status = s;
          redraw();
        },
        done() {
          if (removed || stopped) return;
          removed = true;
          multi.remove(b);
        },
      };
    },
    log(line) {
      if (stopped) ctx.err(line);
      else multi.log(`${line}\n`);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      multi.stop();
    },
  };
}

function kb(n: number): string {
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
