import { InvalidInput } from '../../crawl/errors.js';
import { SHORT_LINK_HOSTS } from './api.js';
import { aidToBvid, bvidToAid, isAid, isBvid } from './ids.js';

export interface VideoRef {
  bvid: string;
  aid: string;
  /** 1-based part of a multi-part video (?p=N), when the reference names one. */
  part?: number;
}

export type PostRef = VideoRef | { short: string };
export type CreatorRef = { mid: string } | { name: string } | { short: string };

const BILI_HOST = /^(?:(?:www|m|space|player)\.)?bilibili\.com$/i;

function asUrl(input: string): URL | undefined {
  const s = input.trim();
  const withScheme = /^https?:\/\//i.test(s) ? s : /^(?:[a-z0-9-]+\.)*(?:bilibili\.com|b23\.tv|bili2233\.cn)(?:[/?#]|$)/i.test(s) ? `https://${s}` : undefined;
  if (!withScheme) return undefined;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

const isShortHost = (host: string): boolean => SHORT_LINK_HOSTS.includes(host.toLowerCase().replace(/^www\./, ''));

function normalizeBvid(s: string): string | undefined {
  const b = /^bv/i.test(s) ? `BV${s.slice(2)}` : s;
  return isBvid(b) ? b : undefined;
}

function fromId(id: string): VideoRef | undefined {
  const bvid = normalizeBvid(id);
  if (bvid) return { bvid, aid: bvidToAid(bvid) };
  const av = /^(?:av)?(\d+)$/i.exec(id);
  if (av && isAid(av[1])) return { bvid: aidToBvid(av[1]), aid: av[1] };
  return undefined;
}

function partOf(url: URL): number | undefined {
  const p = Number(url.searchParams.get('p'));
  return Number.isInteger(p) && p > 1 ? p : undefined;
}

/** A video reference in a bilibili URL (www/m video pages, player embeds, list pages with ?bvid=). */
export function videoFromUrl(url: URL): VideoRef | undefined {
  const parts = url.pathname.split('/').filter(Boolean);
  const i = parts.indexOf('video');
  const fromPath = i >= 0 && parts[i + 1] ? fromId(parts[i + 1]) : undefined;
  const found = fromPath ?? fromId(url.searchParams.get('bvid') ?? '') ?? fromId(url.searchParams.get('aid') ?? '');
  if (!found) return undefined;
  const part = partOf(url);
  return part ? { ...found, part } : found;
}

/**
 * Video reference: BV id (BV17x411w7KC), av id (av170001 or 170001), a video URL
 * (www.bilibili.com/video/…, m.bilibili.com/video/…, ?p=N for a part, player.bilibili.com/player.html?bvid=…),
 * or a b23.tv / bili2233.cn short link (resolved by following its redirect).
 */
export function parsePostRef(input: string | undefined): PostRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a bilibili video reference (BV id, av id or video URL) is required');
  const url = asUrl(raw);
  if (!url) {
    const ref = fromId(raw);
    if (ref) return ref;
    throw new InvalidInput(`"${raw}" is not a bilibili video reference (expected a BV id, an av id or a video URL)`);
  }
  if (isShortHost(url.hostname)) {
    const code = url.pathname.split('/').filter(Boolean)[0];
    if (!code) throw new InvalidInput(`"${raw}" is a short link without a code`);
    return { short: `https://${url.hostname.toLowerCase()}/${code}` };
  }
  const dynamicPage = /^t\.bilibili\.com$/i.test(url.hostname);
  if (!dynamicPage && !BILI_HOST.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a bilibili URL`);
  const ref = dynamicPage ? undefined : videoFromUrl(url);
  if (ref) return ref;
  if (dynamicPage || /^\/(?:opus|read|bangumi|cheese|audio|festival)\//.test(url.pathname)) {
    throw new InvalidInput(`"${raw}" is not a bilibili video (only /video/ pages, BV ids and av ids are supported here)`);
  }
  throw new InvalidInput(`"${raw}" is not a bilibili video URL (expected /video/BV… or /video/av…)`);
}

/** The creator a bilibili URL names (space.bilibili.com/<mid>, m.bilibili.com/space/<mid>). */
export function creatorFromUrl(url: URL): string | undefined {
  const parts = url.pathname.split('/').filter(Boolean);
  if (/^space\./i.test(url.hostname) && parts[0] && /^\d+$/.test(parts[0])) return parts[0];
  const i = parts.indexOf('space');
  if (i >= 0 && parts[i + 1] && /^\d+$/.test(parts[i + 1])) return parts[i + 1];
  const mid = url.searchParams.get('mid') ?? url.searchParams.get('vmid') ?? url.searchParams.get('host_mid');
  return mid && /^\d+$/.test(mid) ? mid : undefined;
}

/**
 * Creator reference: a mid (2, UID:2), a space URL (space.bilibili.com/<mid>, m.bilibili.com/space/<mid>),
 * a b23.tv short link to one, or @name (resolved through the user search, exact name only).
 */
export function parseCreatorRef(input: string | undefined): CreatorRef {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput('params.query: a bilibili creator reference (mid, space URL or @name) is required');
  const url = asUrl(raw);
  if (url) {
    if (isShortHost(url.hostname)) {
      const code = url.pathname.split('/').filter(Boolean)[0];
      if (!code) throw new InvalidInput(`"${raw}" is a short link without a code`);
      return { short: `https://${url.hostname.toLowerCase()}/${code}` };
    }
    if (!BILI_HOST.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a bilibili URL`);
    const mid = creatorFromUrl(url);
    if (mid) return { mid };
    throw new InvalidInput(`"${raw}" is not a bilibili space URL (expected space.bilibili.com/<mid>)`);
  }
  const uid = /^(?:uid[:：]?\s*)?(\d{1,19})$/i.exec(raw);
  if (uid) return { mid: uid[1] };
  const name = raw.replace(/^@/, '').trim();
  if (!name || name.length > 64 || /[/?#]/.test(name)) throw new InvalidInput(`"${raw}" is not a bilibili mid, space URL or @name`);
  return { name };
}

export const spaceUrl = (mid: string): string => `https://space.bilibili.com/${mid}`;
export const videoUrl = (bvid: string): string => `https://www.bilibili.com/video/${bvid}`;
