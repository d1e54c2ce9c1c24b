import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one service instance (its own registry: no global state). */
export class Metrics {
  readonly registry = new Registry();
  /**
   * Cache hits not yet added to their three counters, by source and action. A hit is the API's hottest
   * path: it bumps one number here, and the counters take the sums when they are read (a scrape).
   */
  private readonly pendingHits = new Map<string, { source: string; action: string; n: number }>();
  private readonly addPendingHits = () => {
    for (const h of this.pendingHits.values()) {
      if (!h.n) continue;
      const labels = { source: h.source, action: h.action };
      this.tasksSubmitted.inc(labels, h.n);
      this.cacheHits.inc(labels, h.n);
      this.tasksFinished.inc({ ...labels, status: 'succeeded', outcome: 'cache' }, h.n);
      h.n = 0;
    }
  };
  readonly tasksSubmitted = new Counter({ name: 'crawler_tasks_submitted_total', help: 'Tasks accepted', labelNames: ['source', 'action'], registers: [this.registry], collect: this.addPendingHits });
  readonly tasksFinished = new Counter({
    name: 'crawler_tasks_finished_total',
    help: 'Tasks that ended, by status and result source (live, cache, empty, blocked) or error code',
    labelNames: ['source', 'action', 'status', 'outcome'],
    registers: [this.registry],
    collect: this.addPendingHits,
  });
  readonly cacheHits = new Counter({ name: 'crawler_cache_hits_total', help: 'Tasks answered from the result cache', labelNames: ['source', 'action'], registers: [this.registry], collect: this.addPendingHits });
  readonly crawlSeconds = new Histogram({
    name: 'crawler_crawl_duration_seconds',
    help: 'Time a live crawl took',
    labelNames: ['source', 'action'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly upstreamRequests = new Counter({ name: 'crawler_upstream_requests_total', help: 'Requests sent to platforms', labelNames: ['platform'], registers: [this.registry] });
  readonly webhookDeliveries = new Counter({
    name: 'crawler_webhook_deliveries_total',
    help: 'Webhook attempts by outcome: ok (a 2xx answer), failed (retried later), given_up (no 2xx within 24 h)',
    labelNames: ['outcome'],
    registers: [this.registry],
  });
  readonly httpRequests = new Counter({ name: 'crawler_http_requests_total', help: 'API requests answered', labelNames: ['method', 'route', 'status'], registers: [this.registry] });

  /** A task answered from cache: submitted, a cache hit, and finished (succeeded, outcome cache). */
  cacheHit(source: string, action: string): void {
    const key = `${source}.${action}`;
    const h = this.pendingHits.get(key);
    if (h) h.n++;
    else this.pendingHits.set(key, { source, action, n: 1 });
  }

  constructor(queue: () => Promise<Record<string, number>>) {
    new Gauge({
      name: 'crawler_tasks_in_queue',
      help: 'Tasks queued or running now',
      labelNames: ['status'],
      registers: [this.registry],
      async collect() {
        const counts = await queue();
        this.set({ status: 'queued' }, counts.queued ?? 0);
        this.set({ status: 'running' }, counts.running ?? 0);
      },
    });
  }
}
