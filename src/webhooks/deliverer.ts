import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { request, type Dispatcher } from 'undici';
import type { Metrics } from '../metrics.js';
import type { WebhookAttempt, WebhookDelivery, WebhookOutbox, WebhookOutcome } from '../store/webhooks.js';
import { RETRY_WINDOW_MS, retryDelayMs } from './backoff.js';
import { notificationOf } from './schemas.js';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from './signing.js';
import { parseTarget, type TargetRules } from './target.js';

export interface DelivererOptions {
  outbox: WebhookOutbox;
  secret: string;
  rules: Pick<TargetRules, 'allowHttp' | 'allowAddress'>;
  /** Connects only to addresses that pass the SSRF rules, judged at connect time. */
  dispatcher: Dispatcher;
  metrics: Metrics;
  log: Logger;
  userAgent: string;
  /** How often due deliveries are looked for (default 1 s). */
  pollMs?: number;
  /** How long a claimed delivery stays this process's; a process that dies leaves it due again after this (default 60 s). */
  leaseMs?: number;
  /** Deliveries in flight at once (default 8): memory stays bounded by them. */
  concurrency?: number;
  /** Whole attempt, connect to last byte (default 10 s). */
  timeoutMs?: number;
  /** Clock (tests move it across the retry window). */
  now?: () => number;
}

/**
 * Delivers the outbox: every process with the store runs one. Each delivery is leased before it is
 * sent, so of the processes polling one database exactly one sends it; at least once, never lost.
 */
export class WebhookDeliverer {
  readonly owner = `wd_${randomBytes(6).toString('hex')}`;
  private inFlight = 0;
  private timer?: NodeJS.Timeout;
  private polling?: Promise<void>;
  private stopped = false;
  private readonly stopping = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private readonly now: () => number;

  constructor(private readonly o: DelivererOptions) {
    this.now = o.now ?? Date.now;
  }

  start(): void {
    this.schedule(0);
  }

  /** A task ended here: look now rather than at the next poll. */
  nudge(): void {
    if (!this.stopped && !this.polling) this.schedule(0);
  }

  /**
   * Stops claiming and abandons deliveries in flight without recording them: like a process that died,
   * their leases run out and another process (or the next start) sends them.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.stopping.abort();
    await this.polling;
    await Promise.allSettled([...this.running]);
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.polling = this.poll().finally(() => {
        this.polling = undefined;
        if (!this.stopped) this.schedule(this.o.pollMs ?? 1000);
      });
    }, ms);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    const free = (this.o.concurrency ?? 8) - this.inFlight;
    if (free <= 0 || this.stopped) return;
    let due: WebhookDelivery[];
    try {
      const now = this.now();
      due = await this.o.outbox.claimDue(this.owner, now, now + (this.o.leaseMs ?? 60_000), free);
    } catch (e) {
      this.o.log.warn({ err: e }, 'webhook outbox not readable; trying again at the next poll');
      return;
    }
    for (const d of due) {
      this.inFlight++;
      const run = this.deliver(d)
        .catch((e) => this.o.log.warn({ err: e, delivery: d.id }, 'webhook attempt not recorded; its lease runs out and it is sent again'))
        .finally(() => {
          this.inFlight--;
          this.running.delete(run);
        });
      this.running.add(run);
    }
  }

  private async deliver(d: WebhookDelivery): Promise<void> {
    const at = this.now();
    const started = performance.now();
    const tried = await this.send(d);
    if (this.stopping.signal.aborted) return;
    const attempt: WebhookAttempt = { n: d.tries, at, http_status: tried.status ?? null, error: tried.error ?? null, ms: Math.round(performance.now() - started) };
    const outcome = this.outcome(d, at, tried);
    await this.o.outbox.complete(d.id, this.owner, attempt, outcome);
    this.o.metrics.webhookDeliveries.inc({ outcome: tried.ok ? 'ok' : 'failed' });
    if (outcome.state === 'given_up') {
      this.o.metrics.webhookDeliveries.inc({ outcome: 'given_up' });
      this.o.log.warn({ delivery: d.id, task: d.task_id, tries: d.tries }, 'webhook given up: no 2xx answer within 24 h of the first attempt');
    }
  }

  private outcome(d: WebhookDelivery, at: number, tried: Tried): WebhookOutcome {
    if (tried.ok) return { state: 'delivered' };
    if (tried.final) return { state: 'given_up' };
    const next = at + retryDelayMs(d.tries);
    return next > (d.first_attempt_at ?? at) + RETRY_WINDOW_MS ? { state: 'given_up' } : { state: 'pending', next_at: next };
  }

  private async send(d: WebhookDelivery): Promise<Tried> {
    let url: URL;
    try {
      // Judged again at delivery: the rules (or the switch) may have changed since the submit.
      url = parseTarget(d.url, this.o.rules);
    } catch (e) {
      return { ok: false, final: true, error: (e as Error).message };
    }
    const body = JSON.stringify(notificationOf(d));
    const timeoutMs = this.o.timeoutMs ?? 10_000;
    try {
      const res = await request(url, {
        method: 'POST',
        dispatcher: this.o.dispatcher,
        headers: {
          'content-type': 'application/json',
          'user-agent': this.o.userAgent,
          [SIGNATURE_HEADER]: signatureHeader(this.o.secret, Math.floor(this.now() / 1000), body),
          [DELIVERY_HEADER]: d.id,
          [EVENT_HEADER]: d.event,
        },
        body,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal: AbortSignal.any([AbortSignal.timeout(timeoutMs), this.stopping.signal]),
      });
      // At most 64 KiB of the answer is read (and dropped): a receiver cannot make this process hold a large one.
      await res.body.dump({ limit: 64 * 1024 }).catch(() => {});
      const status = res.statusCode;
      if (status >= 200 && status < 300) return { ok: true, status };
      if (status >= 300 && status < 400) return { ok: false, status, error: 'a redirect is never followed: give the final URL' };
      return { ok: false, status };
    } catch (e) {
      return { ok: false, error: describe(e, timeoutMs) };
    }
  }
}

interface Tried {
  ok: boolean;
  status?: number;
  error?: string;
  /** No later attempt can succeed (the URL itself is refused now). */
  final?: boolean;
}

/** A failure for the delivery log, seen by the task's owner: never an address the service resolved. */
function describe(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (code === 'ERR_FORBIDDEN_ADDRESS') return 'refused: the host resolves to a private, loopback or link-local address';
  if (err.name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `no answer within ${timeoutMs / 1000} s`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the host name does not resolve';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed before an answer';
  if (code && /^(ERR_TLS|CERT_|UNABLE_TO|DEPTH_ZERO|SELF_SIGNED|ERR_SSL)/.test(code)) return `TLS: ${code}`;
  return code ? `connection failed (${code})` : 'connection failed';
}
