import type { Deployment } from '../deploy/roles.js';
import type { TokenService } from '../auth/tokens.js';
import type { ProfileService } from '../accounts/profiles.js';
import type { LoginManager } from '../accounts/browser/index.js';
import type { ProfileChecker } from '../accounts/probe.js';
import type { Config } from '../config.js';
import type { Metrics } from '../metrics.js';
import type { MediaProxy } from '../media/proxy.js';
import type { PreviewService } from '../media/preview/service.js';
import type { DownloadService } from '../download/service.js';
import type { FileSigner } from '../download/capability.js';
import type { MediaUrlBuilder } from '../media/urls.js';
import type { MediaSigner } from '../media/capability.js';
import type { CatalogIndex } from '../platforms/catalog.js';
import type { Registry } from '../platforms/registry.js';
import type { Store } from '../store/types.js';
import type { EventBus } from '../tasks/events.js';
import type { EventLog } from '../tasks/event-log.js';
import type { Runner } from '../tasks/runner.js';
import type { TaskService } from '../tasks/service.js';
import type { BatchService } from '../tasks/batches.js';
import type { WorkerBeat } from '../redis/heartbeat.js';
import type { WebhookOutbox } from '../store/webhooks.js';
import type { WatchService } from '../watches/service.js';

/** What health reads of a fleet: live worker processes and the shared queue's depths. */
export interface FleetView {
  workers(): Promise<WorkerBeat[]>;
  /** Jobs waiting or running per account (platform:profile). */
  depths(): Promise<Record<string, number>>;
}

/** What the routes need, handed down from the composition root. */
export interface ApiDeps {
  config: Config;
  /** Embedded or distributed, and which part of the service this process is. */
  deployment: Deployment;
  store: Store;
  tasks: TaskService;
  watches: WatchService;
  batches: BatchService;
  bus: EventBus;
  /** Status and progress history of running tasks, shared by every process (SSE resumes). */
  eventLog: EventLog;
  runner: Runner;
  catalog: CatalogIndex;
  registry: Registry;
  tokens: TokenService;
  profiles: ProfileService;
  logins: LoginManager;
  checker: ProfileChecker;
  metrics: Metrics;
  media: MediaProxy;
  previews: PreviewService;
  downloads: DownloadService;
  fileSigner: FileSigner;
  urls: MediaUrlBuilder;
  mediaSigner: MediaSigner;
  version: string;
  startedAt: number;
  tools: { ffmpeg: boolean; browser: boolean };
  /** Distributed mode: health reports the fleet, not this process. */
  fleet?: FleetView;
  /** SSE keep-alive interval; 15 s per decisions.md, shorter in tests. */
  pingMs: number;
  /** Open SSE streams at once; one more is 429 rate_limited (poll instead). */
  maxStreams: number;
  /** Delivery logs, and the signing secret an admin may read. */
  webhooks: { outbox: WebhookOutbox; secret: string };
}
