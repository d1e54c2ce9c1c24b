import { HostJudge } from '../media/host-judge.js';
import { isIP } from 'node:net';
import { ApiError } from '../domain/errors.js';
import { isForbiddenAddress } from '../media/address.js';
import type { Resolver } from '../media/safe-agent.js';

export const CALLBACK_URL_MAX = 2048;
const NAME = 'params.callback_url';

export interface TargetRules {
  /** http:// as well as https:// (CRAWLER_WEBHOOK_ALLOW_HTTP: a receiver on a test network). */
  allowHttp: boolean;
  resolve: Resolver;
  /** Test hook: addresses a receiver may have despite the rules (a loopback receiver). */
  allowAddress?: (address: string) => boolean;
  /** Submit-time name resolution gives up after this long (default 3 s). */
  resolveTimeoutMs?: number;
  /** Verdicts shared across submits (a batch of 500 entries naming one host looks it up once). */
  hosts?: HostJudge;
}

const refuse = (why: string) => new ApiError('invalid_request', `${NAME}: ${why}`);

/** The URL's host as an address, when it is an IP literal (the URL parser already turned 0x7f.1 and 2130706433 into dotted form). */
export function literalAddress(url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return isIP(host) ? host : undefined;
}

/** The checks that need no network: a short absolute https URL without credentials or a forbidden literal address. */
export function parseTarget(raw: string, rules: Pick<TargetRules, 'allowHttp' | 'allowAddress'>): URL {
  if (raw.length > CALLBACK_URL_MAX) throw refuse(`longer than ${CALLBACK_URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('expected an absolute URL such as https://hooks.example.com/crawler');
  }
  if (url.protocol !== 'https:' && !(rules.allowHttp && url.protocol === 'http:')) {
    throw refuse(rules.allowHttp ? 'must be an http or https URL' : 'must be an https URL');
  }
  if (url.username || url.password) throw refuse('must not carry a user name or password; authenticate the notification by its signature');
  if (!url.hostname) throw refuse('has no host');
  const literal = literalAddress(url);
  if (literal && isForbiddenAddress(literal) && !rules.allowAddress?.(literal)) throw refuse('points at a private, loopback or link-local address');
  if (!literal && !url.hostname.includes('.')) throw refuse('needs a fully qualified public host name');
  return url;
}

/**
 * The whole judgement at submit: the syntax, then every address the host name resolves to (a name
 * with any private, loopback or link-local address is refused). The refusal never says which address.
 */
export async function judgeTarget(raw: string, rules: TargetRules): Promise<string> {
  const url = parseTarget(raw, rules);
  if (literalAddress(url)) return url.href;
  const verdict = await (rules.hosts ?? new HostJudge(rules.resolve, { allowAddress: rules.allowAddress, timeoutMs: rules.resolveTimeoutMs })).judge(url.hostname);
  if (verdict === 'timeout') throw refuse('its host name could not be resolved in time');
  if (verdict === 'unresolved') throw refuse('its host name does not resolve');
  if (verdict === 'forbidden') throw refuse('its host resolves to a private, loopback or link-local address');
  return url.href;
}
