import { HostJudge } from '../media/host-judge.js';
import { isIP } from 'node:net';
import { ProxyAgent, Socks5ProxyAgent, type Dispatcher } from 'undici';
import { UpstreamError } from '../crawl/errors.js';
import { isForbiddenAddress } from '../media/address.js';
import { systemResolver, type Resolver } from '../media/safe-agent.js';
import type { ProxySpec } from './proxy-url.js';

export interface EgressOptions {
  /** Distinct proxies kept open at once; the least recently used is closed beyond it. */
  max?: number;
  connectTimeoutMs?: number;
  /** Resolves target hosts for the SSRF judgement (tests point names at chosen addresses). */
  resolve?: Resolver;
  /** Test hook: target addresses allowed despite the rules (a loopback fake platform). */
  allowAddress?: (address: string) => boolean;
}

/**
 * One undici dispatcher per proxy, cached (bounded, closed on eviction and on close). Through a proxy the
 * proxy resolves the target's name, so the target is judged here before anything is sent: the same address
 * rules as media fetches. The proxy's own address is the operator's choice and is not judged.
 */
export class EgressDispatchers {
  private readonly agents = new Map<string, Dispatcher>();
  private readonly max: number;
  /** Target verdicts, bounded in time and kept briefly: every proxied request is judged before it leaves. */
  private readonly hosts: HostJudge;

  constructor(private readonly o: EgressOptions = {}) {
    this.max = o.max ?? 256;
    this.hosts = new HostJudge(o.resolve ?? systemResolver, { allowAddress: o.allowAddress, keepMs: 10_000 });
  }

  /** The dispatcher that sends through this proxy (its credentials included: two logins are two agents). */
  get(p: ProxySpec): Dispatcher {
    const hit = this.agents.get(p.url);
    if (hit) {
      this.agents.delete(p.url);
      this.agents.set(p.url, hit);
      return hit;
    }
    const agent = this.build(p);
    this.agents.set(p.url, agent);
    while (this.agents.size > this.max) {
      const [oldest, evicted] = this.agents.entries().next().value as [string, Dispatcher];
      this.agents.delete(oldest);
      // Requests still in flight on it finish; close() waits for them.
      void evicted.close().catch(() => {});
    }
    return agent;
  }

  get size(): number {
    return this.agents.size;
  }

  private build(p: ProxySpec): Dispatcher {
    const timeout = this.o.connectTimeoutMs ?? 10_000;
    const target = `${p.scheme}://${p.host}:${p.port}`;
    if (p.scheme === 'socks5') {
      return new Socks5ProxyAgent(target, { username: p.username, password: p.password, connectTimeout: timeout, headersTimeout: 30_000, bodyTimeout: 30_000 });
    }
    const token = p.username !== undefined ? `Basic ${Buffer.from(`${p.username}:${p.password ?? ''}`).toString('base64')}` : undefined;
    // Plain-http targets go as absolute-form requests (what every HTTP proxy speaks); https ones through CONNECT.
    return new ProxyAgent({ uri: target, token, proxyTunnel: false, connect: { timeout }, proxyTls: { timeout }, headersTimeout: 30_000, bodyTimeout: 30_000 });
  }

  /** Refuses a target that is, or resolves to, a private or reserved address (SSRF), before it is sent. */
  async judge(url: URL): Promise<void> {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const allowed = (a: string) => !isForbiddenAddress(a) || this.o.allowAddress?.(a) === true;
    if (isIP(host)) {
      if (!allowed(host)) throw new UpstreamError(`${host} is a private or reserved address: refused`);
      return;
    }
    const verdict = await this.hosts.judge(host);
    if (verdict === 'timeout') throw new UpstreamError(`${host} did not resolve in time`);
    if (verdict === 'unresolved') throw new UpstreamError(`${host} does not resolve`);
    if (verdict === 'forbidden') throw new UpstreamError(`${host} resolves to a private or reserved address: refused`);
  }

  async close(): Promise<void> {
    const all = [...this.agents.values()];
    this.agents.clear();
    await Promise.all(all.map((a) => a.close().catch(() => {})));
  }
}

/**
 * Says whether a failed request failed at the proxy (unreachable, refused our login, or could not reach
 * on), in fixed words: the underlying message may carry the proxy URL and so its credentials.
 */
export function proxyFailure(err: unknown): string | undefined {
  const code = (err as { code?: string })?.code ?? (err as { cause?: { code?: string } })?.cause?.code;
  const msg = String((err as Error)?.message ?? '');
  if (/\b407\b/.test(msg) || /authenticat/i.test(msg)) return 'the proxy refused its credentials (407 / authentication failed)';
  const status = /Proxy response \((\d{3})\)/.exec(msg);
  if (status) return `the proxy answered ${status[1]} to the tunnel request`;
  if (code === 'ECONNREFUSED') return 'connection to the proxy refused';
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') return 'timed out connecting to the proxy';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'the proxy host does not resolve';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'the proxy host is unreachable';
  if (/socks/i.test(msg) || /proxy/i.test(msg)) return 'the proxy failed the connection';
  return undefined;
}
