import { UpstreamError } from '../../crawl/errors.js';
import { opsEnvName } from '../../crawl/ops.js';
import type { CrawlContext } from '../types.js';

/*
 * Everything about Threads that Meta rotates without notice, as data: the Relay doc_ids of the web
 * client, their relay provider flags, the app ids, and how the page hands out its LSD token. The service
 * layers `<data dir>/ops/threads.json` (npx crawler platforms refresh threads) and the file named by
 * CRAWLER_THREADS_OPS over these, per entry; a patched entry only needs the fields it changes.
 *
 * Sources: the 2026 operations, ids and flags as FxEmbed captured them from www.threads.com traffic
 * (FxEmbed packages/atmosphere/src/providers/threads/constants.ts and client.ts, April 2026); the 2023
 * operations as threads-net sent them to www.threads.net/api/graphql (threads/apis/public.py@59d3800),
 * which is what the recorded 2023 answers were asked with; the app's private API values from FxEmbed's
 * reading of the Barcelona 445 Android build (providers/threads/constants.ts@b0f1219).
 */

export const SOURCE = 'threads';

/** One persisted Relay operation of the web client. */
export interface Operation {
  doc_id: string;
  /** X-Root-Field-Name: the root field the answer is under. */
  root?: string;
  /** __relay_internal__pv__<name> variables the bundle's query expects, with the values the site sends. */
  providers?: Record<string, boolean>;
  /** Another endpoint than web.url (the 2023 generation answers at www.threads.net/api/graphql). */
  url?: string;
  /** The 2023 client sent ids as JSON numbers ({"postID": 314…}), the 2026 one as strings. */
  numeric_ids?: boolean;
  /** Kept as recorded; `platforms refresh` leaves it alone (no bundle ships it any more). */
  pinned?: boolean;
}

export interface WebConfig {
  /** The GraphQL endpoint of www.threads.com. */
  url: string;
  origin: string;
  /** The page whose load mints the anonymous session: csrftoken cookie and the LSD token. */
  session_page: string;
  app_id: string;
  asbd_id: string;
  bloks_version_id: string;
  /** Regular expressions, first group = the LSD token, tried in order on the session page. */
  lsd_patterns: string[];
  /** fb_dtsg of a logged-in page (the logged-in web client sends it next to lsd). */
  dtsg_patterns: string[];
  /** Pages whose bundles `platforms refresh` reads. */
  refresh_pages: string[];
  /** At most this many bundles are read by one refresh. */
  refresh_max_bundles: number;
}

export interface AppConfig {
  /** The private API the Threads app calls (shared with Instagram's). */
  url: string;
  /** X-IG-App-ID of the Barcelona app: text_feed/… and fbsearch/text_app/… are served only to it. */
  app_id: string;
  capabilities: string;
  asbd_id: string;
  /** Sent with a bearer (IGT) credential; cookie logins from the web keep the browser's agent. */
  android_user_agent: string;
  search_surface_top: string;
  search_surface_recent: string;
}

/** The logged-out flags FxEmbed copied from a captured BarcelonaPostPageDirectQuery. */
const RELAY_DEFAULTS: Record<string, boolean> = {
  BarcelonaIsLoggedInrelayprovider: false,
  BarcelonaHasPostAuthorNotifControlsrelayprovider: false,
  BarcelonaShouldShowFediverseM1Featuresrelayprovider: false,
  BarcelonaHasInlineReplyComposerrelayprovider: false,
  BarcelonaHasDearAlgoConsumptionrelayprovider: true,
  BarcelonaHasEventBadgerelayprovider: false,
  BarcelonaIsSearchDiscoveryEnabledrelayprovider: false,
  BarcelonaHasCommunitiesrelayprovider: true,
  BarcelonaHasGameScoreSharerelayprovider: true,
  BarcelonaHasPublicViewCountCardrelayprovider: true,
  BarcelonaHasCommunityEntityCardrelayprovider: false,
  BarcelonaHasScorecardCommunityrelayprovider: false,
  BarcelonaHasMusicrelayprovider: false,
  BarcelonaHasNewspaperLinkStylerelayprovider: false,
  BarcelonaHasMessagingrelayprovider: false,
  BarcelonaHasGhostPostEmojiActivationrelayprovider: false,
  BarcelonaOptionalCookiesEnabledrelayprovider: true,
  BarcelonaHasDearAlgoWebProductionrelayprovider: false,
  BarcelonaIsCrawlerrelayprovider: false,
  BarcelonaHasCommunityTopContributorsrelayprovider: false,
  BarcelonaCanSeeSponsoredContentrelayprovider: false,
  BarcelonaShouldShowFediverseM075Featuresrelayprovider: false,
  BarcelonaIsInternalUserrelayprovider: false,
};

const LEGACY_URL = 'https://www.threads.net/api/graphql';

export const OPS_DEFAULTS = {
  web: {
    url: 'https://www.threads.com/graphql/query',
    origin: 'https://www.threads.com',
    session_page: 'https://www.threads.com/',
    app_id: '238260118697367',
    asbd_id: '359341',
    bloks_version_id: '5e29fadab42cb8e08e4a4cb1dfad0df9d86c8aac9c5120ea02ed1380fad4621f',
    // ["LSD",[],{"token":"…"},n] in the page's bootstrap JSON; {"l":"…"} in <script id="__eqmc"> (yt-dlp, FxEmbed).
    lsd_patterns: ['\\["LSD",\\[\\],\\{"token":"([^"]+)"', '<script[^>]*\\bid="__eqmc"[^>]*>\\s*\\{[^<]*?"l":"([^"]+)"'],
    dtsg_patterns: ['\\["DTSGInitialData",\\[\\],\\{"token":"([^"]+)"'],
    refresh_pages: ['https://www.threads.com/', 'https://www.threads.com/@threads'],
    refresh_max_bundles: 80,
  } satisfies WebConfig,
  app: {
    url: 'https://i.instagram.com/api/v1',
    app_id: '3419628305025917',
    capabilities: '3brTv10=',
    asbd_id: '359341',
    android_user_agent: 'Barcelona 445.0.0.2.83 Android (34/14; 420dpi; 1080x2340; samsung; SM-S911B; dm1q; qcom; en_US; 511505005)',
    search_surface_top: 'ig_text_search_serp_top',
    search_surface_recent: 'ig_text_search_serp_recent',
  } satisfies AppConfig,
  // The 2026 generation (www.threads.com).
  BarcelonaPostPageDirectQuery: {
    doc_id: '35009275178687016',
    root: 'xdt_api__v1__text_feed__media_id__replies__connection',
    providers: RELAY_DEFAULTS,
  } satisfies Operation,
  BarcelonaUsernameHovercardImplDirectQuery: {
    doc_id: '26380219401627134',
    root: 'xdt_text_app_user_by_username',
    providers: {
      BarcelonaIsInternalUserrelayprovider: false,
      BarcelonaIsLoggedInrelayprovider: false,
      BarcelonaHasMessagingrelayprovider: false,
      BarcelonaShouldShowFediverseM1Featuresrelayprovider: false,
      BarcelonaHasEventBadgerelayprovider: false,
    },
  } satisfies Operation,
  BarcelonaProfilePageDirectQuery: {
    doc_id: '26973787138973936',
    root: 'xdt_text_app_user',
    providers: {
      BarcelonaIsLoggedInrelayprovider: false,
      BarcelonaHasMessagingrelayprovider: false,
      BarcelonaIsLoggedOutrelayprovider: true,
      BarcelonaIsInternalUserrelayprovider: false,
      BarcelonaHasEventBadgerelayprovider: false,
      BarcelonaHasCommunitiesrelayprovider: true,
      BarcelonaHasCommunityTopContributorsrelayprovider: false,
      BarcelonaShouldShowFediverseM1Featuresrelayprovider: false,
    },
  } satisfies Operation,
  BarcelonaProfileThreadsTabRefetchableDirectQuery: {
    doc_id: '26687434907534883',
    root: 'xdt_api__v1__text_feed__user_id__profile__connection',
    providers: { ...RELAY_DEFAULTS, BarcelonaHasProfileSelfReplyContextrelayprovider: false },
  } satisfies Operation,
  // The 2023 generation (www.threads.net/api/graphql), asked after the current one fails.
  BarcelonaPostPageQuery: { doc_id: '5587632691339264', url: LEGACY_URL, numeric_ids: true, pinned: true } satisfies Operation,
  BarcelonaProfileRootQuery: { doc_id: '23996318473300828', url: LEGACY_URL, numeric_ids: true, pinned: true } satisfies Operation,
  BarcelonaProfileThreadsTabQuery: { doc_id: '6232751443445612', url: LEGACY_URL, numeric_ids: true, pinned: true } satisfies Operation,
};

export type OperationName = Exclude<keyof typeof OPS_DEFAULTS, 'web' | 'app'>;
export const OPERATION_NAMES = Object.keys(OPS_DEFAULTS).filter((k) => k !== 'web' && k !== 'app') as OperationName[];

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** An entry of ctx.ops over its default, field by field (a patch names only what it changes). */
function layered<T extends object>(ctx: CrawlContext, name: string, fallback: T): T {
  const given = ctx.ops[name];
  if (given === undefined) return fallback;
  if (!isObject(given)) throw new UpstreamError(`threads operation data: "${name}" must be an object (check ${opsEnvName(SOURCE)} or the refreshed file)`);
  return { ...fallback, ...given } as T;
}

export function operation(ctx: CrawlContext, name: OperationName): Operation & { name: OperationName } {
  const op = layered<Operation>(ctx, name, OPS_DEFAULTS[name]);
  if (typeof op.doc_id !== 'string' || !/^\d{6,25}$/.test(op.doc_id)) {
    throw new UpstreamError(`threads operation data: ${name}.doc_id ${JSON.stringify(op.doc_id)} is not a doc_id (digits); fix it in ${opsEnvName(SOURCE)} or run \`npx crawler platforms refresh threads\``);
  }
  return { ...op, name };
}

export function webConfig(ctx: CrawlContext): WebConfig {
  return layered<WebConfig>(ctx, 'web', OPS_DEFAULTS.web);
}

export function appConfig(ctx: CrawlContext): AppConfig {
  return layered<AppConfig>(ctx, 'app', OPS_DEFAULTS.app);
}

/** The first group of the first pattern that matches; a pattern that does not compile is skipped. */
export function firstMatch(text: string, patterns: readonly string[]): string | undefined {
  for (const p of patterns) {
    let re: RegExp;
    try {
      re = new RegExp(p);
    } catch {
      continue;
    }
    const m = re.exec(text)?.[1];
    if (m) return m;
  }
  return undefined;
}
