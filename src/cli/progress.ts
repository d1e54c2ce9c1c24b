import cliProgress from 'cli-progress';
import { elapsed } from './text.js';

export interface ProgressView {
  update(p: { items: number; pages: number }): void;
  stop(): void;
}

const quiet: ProgressView = { update() {}, stop() {} };

/**
 * A live line on stderr (items, pages, rate, elapsed), fed by the task's SSE progress events; with a
 * known total, a bar too. Nothing at all when stderr is not a terminal, so pipes and logs stay clean.
 */
export function progressView(stream: NodeJS.WriteStream, total: number | undefined): ProgressView {
  if (!stream.isTTY) return quiet;
  let pages = 0;
  const bar = new cliProgress.SingleBar({
    stream,
    fps: 8,
    hideCursor: true,
    clearOnComplete: false,
    barsize: 24,
    barCompleteChar: '#',
    barIncompleteChar: '.',
    format: (options, params) => {
      const ms = Date.now() - params.startTime;
      const rate = ms > 0 ? (params.value * 1000) / ms : 0;
      const counts = `${params.value}${total ? `/${total}` : ''} items · ${pages} pages · ${rate.toFixed(1)} items/s · ${elapsed(ms)}`;
      return total ? `[${cliProgress.Format.BarFormat(Math.min(1, params.value / total), options)}] ${counts}` : `crawling ${counts}`;
    },
  });
  bar.start(total ?? 0, 0);
  return {
    update(p) {
      pages = p.pages;
      bar.update(p.items);
    },
    stop() {
      bar.stop();
    },
  };
}
