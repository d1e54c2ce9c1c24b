import { randomBytes } from 'node:crypto';
import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { errorBody } from '../domain/errors.js';
import type { Store, TaskRow } from '../store/types.js';
import { WRITE_ACTIONS } from '../tasks/writes.js';
import type { TaskQueue } from './types.js';

export interface BullQueueOptions {
  /** Commands (queues, the account index, wake-ups); shared by every account queue of this process. */
  redis: Redis;
  /** Blocking-capable client BullMQ workers duplicate their connections from (maxRetriesPerRequest null). */
  workerRedis: Redis;
  /** A client this queue puts in subscriber mode, for wake-ups from other processes. */
  sub: Redis;
  /** Key prefix of this fleet's queues (no ':' inside). */
  prefix: string;
  store: Store;
  /** Tasks of one account running at once across the fleet. */
  accountSlots: number;
  /** A claimed job's lock lives this long unless this process renews it (it does, every half). */
  lockMs?: number;
  /** How often each account queue looks for jobs whose worker stopped renewing (then reads run again). */
  stalledMs?: number;
  /** How often the runner is woken without a message (lost wake-ups, stalled jobs back in a queue); default 1 s. */
  pollMs?: number;
  /** How often queued task rows are re-added, in case Redis lost them. */
  reconcileMs?: number;
  log?: Logger;
}

interface Held {
  job: Job;
  token: string;
  attempt: number;
}

interface Account {
  queue: Queue;
  worker: Worker;
}

const WATCH_RUN_PRIORITY = 10;

/** What a redelivered write ends as: the platform may have taken it, so it is never sent again. */
export const OUTCOME_UNKNOWN = { ...errorBody('upstream_error', 'outcome unknown: the worker running this write stopped mid-call; check the platform before writing again'), retryable: false };

/**
 * The fleet's queue: one BullMQ queue per account with global concurrency accountSlots, so an account runs
 * one task at a time across every worker process, enforced inside BullMQ's own scripts (no home-made lock).
 * The task row stays the truth: a claim is a compare-and-set queued → running on it, job ids are task ids
 * (adding twice is a no-op), and a reconciler re-adds queued rows Redis does not hold.
 */
export class BullQueue implements TaskQueue {
  /** The runner's pump: called when another process added work or freed an account. */
  onWake?: () => void;
  /** A claim ended a task itself (a redelivered write): its final events are the runner's to publish. */
  onSettled?: (row: TaskRow) => void;
  private readonly accounts = new Map<string, Account>();
  private readonly held = new Map<string, Held>();
  private readonly token = randomBytes(8).toString('hex');
  private readonly lockMs: number;
  private readonly wakeChannel: string;
  private readonly timers: NodeJS.Timeout[] = [];
  private rotation = 0;
  private closed = false;
  readonly ready: Promise<unknown>;

  constructor(private readonly o: BullQueueOptions) {
    this.lockMs = o.lockMs ?? 30_000;
    this.wakeChannel = `${o.prefix}:wake`;
    this.ready = o.sub.subscribe(this.wakeChannel);
    o.sub.on('message', (channel: string) => {
      if (channel === this.wakeChannel) this.onWake?.();
    });
    // Renewing locks keeps a live run's job ours; a worker that stops renewing (killed) loses it to the stalled check.
    this.every(this.lockMs / 2, () => this.renewLocks());
    // Pub/sub wake-ups can be lost and a stalled job returns to its queue silently: look again now and then.
    this.every(o.pollMs ?? 1000, () => this.onWake?.());
    this.every(o.reconcileMs ?? 30_000, () => this.reconcile());
  }

  async add(row: TaskRow): Promise<void> {
    await this.enqueue(row);
    await this.o.redis.publish(this.wakeChannel, row.account);
  }

  /**
   * The next job of an account that is neither busy here nor at its fleet-wide limit, turned into its task
   * row by the compare-and-set queued → running. Accounts are visited in rotation, so one cannot starve others.
   */
  async claim(busyAccounts: string[], now: number): Promise<TaskRow | undefined> {
    const busy = new Set(busyAccounts);
    const names = (await this.o.redis.smembers(this.indexKey())).filter((a) => !busy.has(a)).sort();
    for (let i = 0; i < names.length; i++) {
      const name = names[(this.rotation + i) % names.length];
      const acct = await this.account(name);
      for (;;) {
        const job = (await acct.worker.getNextJob(this.token, { block: false })) as Job | undefined;
        if (!job) break;
        const row = await this.resolve(job, now);
        if (row) {
          this.rotation = (this.rotation + i + 1) % names.length;
          return row;
        }
      }
    }
    return undefined;
  }

  /** The run ended (any outcome, cancel included): the account's slot frees fleet-wide at once. */
  async done(row: TaskRow): Promise<void> {
    const h = this.held.get(row.id);
    if (!h || h.attempt !== row.attempts) return;
    this.held.delete(row.id);
    await this.complete(h.job, h.token);
    await this.o.redis.publish(this.wakeChannel, row.account);
  }

  /**
   * A fleet has no "every other process is dead" moment, so rows left running are not re-queued here:
   * their jobs come back through BullMQ's stalled check. What Redis lost is re-added.
   */
  async recover(): Promise<number> {
    await this.reconcile();
    return 0;
  }

  /** Re-adds every queued task row (job ids make it a no-op for those Redis still holds); returns how many rows. */
  async reconcile(): Promise<number> {
    // A Redis that lost its data lost each queue's concurrency limit and the account index with it.
    for (const [name, a] of this.accounts) await this.declare(name, a.queue);
    // Listed newest first; re-added oldest first, so each account's order survives.
    const rows: TaskRow[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await this.o.store.listTasks({ status: 'queued', before, limit: 500 });
      rows.push(...page);
      if (page.length < 500) break;
      before = page[page.length - 1].id;
    }
    for (const row of rows.reverse()) await this.enqueue(row);
    if (rows.length) await this.o.redis.publish(this.wakeChannel, '*');
    return rows.length;
  }

  /** Jobs waiting or running per account across the fleet (health). */
  async depths(): Promise<Record<string, number>> {
    const out: Record<string, number> = {};
    for (const name of await this.o.redis.smembers(this.indexKey())) {
      const c = await (await this.account(name)).queue.getJobCounts('waiting', 'active', 'prioritized');
      out[name] = (c.waiting ?? 0) + (c.active ?? 0) + (c.prioritized ?? 0);
    }
    return out;
  }

  /**
   * Drops every account's BullMQ objects after their connection was revived (the watchdog): they are built
   * again on first use. Runs in progress keep their rows; their jobs' locks lapse and the stalled check,
   * or the row's own state, settles them.
   */
  async rebuild(): Promise<void> {
    const old = [...this.accounts.values()];
    this.accounts.clear();
    for (const a of old) {
      await Promise.allSettled([a.worker.close(true), a.queue.close()]);
    }
    await this.reconcile();
    this.onWake?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    for (const a of this.accounts.values()) {
      await a.worker.close(true);
      await a.queue.close();
    }
    this.accounts.clear();
  }

  /**
   * The job's task row, running under this claim; undefined when the job is spent. A job whose row is
   * already running was redelivered (its worker stopped renewing the lock): a read runs again under the
   * same attempt (the first finish wins), a write never does: it ends "outcome unknown".
   */
  /** Job id = task id: BullMQ ignores an add whose id it holds. One attempt: redelivery is the stalled check's. */
  private async enqueue(row: TaskRow): Promise<void> {
    const acct = await this.account(row.account);
    // BullMQ serves jobs without a priority before prioritized ones: a watch's run waits for interactive tasks.
    const priority = row.watch_id ? { priority: WATCH_RUN_PRIORITY } : {};
    await acct.queue.add('task', { id: row.id }, { jobId: row.id, attempts: 1, removeOnComplete: true, removeOnFail: true, ...priority });
  }

  private async resolve(job: Job, now: number): Promise<TaskRow | undefined> {
    const id = job.id as string;
    const claimed = await this.o.store.markRunning(id, now);
    if (claimed) {
      this.held.set(id, { job, token: this.token, attempt: claimed.attempts });
      return claimed;
    }
    const row = await this.o.store.getTask(id);
    if (row?.status === 'running' && !WRITE_ACTIONS.has(row.action)) {
      this.held.set(id, { job, token: this.token, attempt: row.attempts });
      return row;
    }
    await this.complete(job, this.token);
    if (row?.status === 'running') {
      const ended = await this.o.store.finishTask(id, row.attempts, 'failed', null, OUTCOME_UNKNOWN, now, row.event_seq + 2);
      if (ended) this.onSettled?.(ended);
    }
    return undefined;
  }

  private async complete(job: Job, token: string): Promise<void> {
    try {
      await job.moveToCompleted(null, token, false);
    } catch (e) {
      // The lock went elsewhere (stalled and redelivered) or Redis lost the job: the row already says how it ended.
      this.o.log?.warn({ err: e, task: job.id }, 'job not marked completed in Redis');
    }
  }

  private async renewLocks(): Promise<void> {
    for (const [id, h] of this.held) {
      try {
        await h.job.extendLock(h.token, this.lockMs);
      } catch (e) {
        this.o.log?.warn({ err: e, task: id }, 'could not renew a running job\'s lock');
      }
    }
  }

  private async account(name: string): Promise<Account> {
    let a = this.accounts.get(name);
    if (a) return a;
    const queueName = queueNameOf(name);
    const queue = new Queue(queueName, { connection: this.o.redis, prefix: this.o.prefix });
    const worker = new Worker(queueName, null, {
      connection: this.o.workerRedis,
      prefix: this.o.prefix,
      autorun: false,
      lockDuration: this.lockMs,
      stalledInterval: this.o.stalledMs ?? 30_000,
      // A read may come back several times; a write is refused on its first return (resolve()).
      maxStalledCount: 10,
    });
    worker.on('error', (e) => this.o.log?.warn({ err: e, account: name }, 'account queue worker error'));
    a = { queue, worker };
    this.accounts.set(name, a);
    await this.declare(name, queue);
    void worker.startStalledCheckTimer().catch((e) => this.o.log?.warn({ err: e, account: name }, 'stalled check not started'));
    return a;
  }

  private async declare(name: string, queue: Queue): Promise<void> {
    await queue.setGlobalConcurrency(this.o.accountSlots);
    await this.o.redis.sadd(this.indexKey(), name);
  }

  private indexKey(): string {
    return `${this.o.prefix}:accounts`;
  }

  private every(ms: number, f: () => unknown): void {
    const t = setInterval(() => {
      if (this.closed) return;
      void Promise.resolve()
        .then(f)
        .catch((e) => this.o.log?.warn({ err: e }, 'queue maintenance failed'));
    }, ms);
    t.unref();
    this.timers.push(t);
  }
}

/** BullMQ queue names may not hold ':'; account names (platform:profile) are spelled out safely. */
export function queueNameOf(account: string): string {
  return `acct-${account.replace(/[^A-Za-z0-9_-]/g, (c) => `.${c.charCodeAt(0).toString(16)}.`)}`;
}
