import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Prometheus metrics of one service instance (its own registry: no global state). */
export class Metrics {
  readonly registry = new Registry();
  readonly tasksSubmitted = new Counter({ name: 'crawler_tasks_submitted_total', help: 'Tasks accepted', labelNames: ['source', 'action'], registers: [this.registry] });
  readonly tasksFinished = new Counter({
    name: 'crawler_tasks_finished_total',
    help: 'Tasks that ended, by status and result source (live, cache, empty, blocked) or error code',
    labelNames: ['source', 'action', 'status', 'outcome'],
    registers: [this.registry],
  });
  readonly cacheHits = new Counter({ name: 'crawler_cache_hits_total', help: 'Tasks answered from the result cache', labelNames: ['source', 'action'], registers: [this.registry] });
  readonly crawlSeconds = new Histogram({
    name: 'crawler_crawl_duration_seconds',
    help: 'Time a live crawl took',
    labelNames: ['source', 'action'],
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
    registers: [this.registry],
  });
  readonly upstreamRequests = new Counter({ name: 'crawler_upstream_requests_total', help: 'Requests sent to platforms', labelNames: ['platform'], registers: [this.registry] });
  readonly httpRequests = new Counter({ name: 'crawler_http_requests_total', help: 'API requests answered', labelNames: ['method', 'route', 'status'], registers: [this.registry] });

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
