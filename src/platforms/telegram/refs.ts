import { InvalidInput } from '../../crawl/errors.js';

/*
 * Telegram references. A public channel is named by its username; a post by "<username>/<message id>".
 * Accepted forms: durov, @durov, t.me/durov, t.me/s/durov, https://telegram.me/durov, durov.t.me,
 * tg://resolve?domain=durov, and for posts t.me/durov/123, t.me/s/durov/123, @durov/123, durov/123,
 * telegram:durov/123 (an item id of this service), tg://resolve?domain=durov&post=123.
 */

export const ORIGIN = 'https://t.me';

/*
 * Usernames are 5 to 32 letters, digits and underscores starting with a letter; older and auctioned
 * ones can be as short as 3 or 4, so the lower bound is kept loose.
 */
const USERNAME = /^[A-Za-z][A-Za-z0-9_]{2,31}$/;
const TME_HOST = /^(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)$/i;
const SUBDOMAIN_HOST = /^([A-Za-z][A-Za-z0-9_]{2,31})\.t\.me$/i;
/** First path segments of t.me that are not usernames. */
const RESERVED = new Set([
  's', 'c', 'joinchat', 'addstickers', 'addemoji', 'addtheme', 'addlist', 'share', 'proxy', 'socks', 'login', 'iv',
  'setlanguage', 'confirmphone', 'invoice', 'giftcode', 'boost', 'contact',
]);

export interface ChannelRef {
  channel: string;
  /** A `?before=<id>` carried by a t.me/s URL: where the history should start. */
  before?: string;
}

export interface PostRef {
  channel: string;
  id: string;
}

export interface SearchRef {
  channel: string;
  q: string;
  before?: string;
}

export const channelUrl = (channel: string): string => `${ORIGIN}/${channel}`;
export const postUrl = (channel: string, id: string | number): string => `${ORIGIN}/${channel}/${id}`;

interface Parsed {
  channel: string;
  post?: string;
  url?: URL;
}

function asUrl(raw: string): URL | undefined {
  if (/^tg:\/\//i.test(raw)) {
    try {
      return new URL(raw);
    } catch {
      return undefined;
    }
  }
  const withScheme = /^https?:\/\//i.test(raw) ? raw : /^(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\//i.test(raw) || /^[A-Za-z0-9_]+\.t\.me(?:\/|$)/i.test(raw) ? `https://${raw}` : undefined;
  if (!withScheme) return undefined;
  try {
    return new URL(withScheme);
  } catch {
    return undefined;
  }
}

function checkUsername(name: string, raw: string): string {
  if (!USERNAME.test(name)) throw new InvalidInput(`"${raw}" does not name a public telegram channel (expected a username like durov, @durov or t.me/durov)`);
  return name;
}

function checkPostId(id: string, raw: string): string {
  if (!/^\d{1,12}$/.test(id) || /^0+$/.test(id)) throw new InvalidInput(`"${raw}": "${id}" is not a telegram message id`);
  return id.replace(/^0+/, '');
}

function fromUrl(url: URL, raw: string): Parsed {
  if (url.protocol === 'tg:') {
    const domain = url.searchParams.get('domain');
    if (url.hostname !== 'resolve' || !domain) throw new InvalidInput(`"${raw}" is not a tg://resolve link to a public channel`);
    const post = url.searchParams.get('post') ?? undefined;
    return { channel: checkUsername(domain, raw), post: post === undefined ? undefined : checkPostId(post, raw), url };
  }
  const sub = SUBDOMAIN_HOST.exec(url.hostname);
  const parts = url.pathname.split('/').filter(Boolean);
  if (sub && !TME_HOST.test(url.hostname)) {
    const post = parts[0] && /^\d+$/.test(parts[0]) ? checkPostId(parts[0], raw) : undefined;
    return { channel: checkUsername(sub[1], raw), post, url };
  }
  if (!TME_HOST.test(url.hostname)) throw new InvalidInput(`"${raw}" is not a t.me / telegram.me URL`);
  const [first, second, third]: Array<string | undefined> = parts[0] === 's' ? parts.slice(1) : parts;
  if (!first) throw new InvalidInput(`"${raw}" names no channel`);
  if (first === 'c') throw new InvalidInput(`"${raw}" is a link into a private channel (t.me/c/…): it has no public web preview`);
  if (first.startsWith('+') || first === 'joinchat') throw new InvalidInput(`"${raw}" is an invite link to a private chat: it has no public web preview`);
  if (RESERVED.has(first.toLowerCase())) throw new InvalidInput(`"${raw}" is a t.me service link, not a channel`);
  const channel = checkUsername(first, raw);
  // t.me/<channel>/<topic>/<id> exists for forum groups; the last numeric segment is the message.
  const postPart = third && /^\d+$/.test(third) ? third : second;
  const post = postPart !== undefined && /^\d+$/.test(postPart) ? checkPostId(postPart, raw) : undefined;
  return { channel, post, url };
}

function parse(input: string | undefined, what: string): Parsed {
  const raw = (input ?? '').trim();
  if (!raw) throw new InvalidInput(`params.query: a telegram ${what} is required`);
  const url = asUrl(raw);
  if (url) return fromUrl(url, raw);
  const bare = raw.replace(/^telegram:/i, '').replace(/^@/, '');
  const m = /^([^/\s?#]+)(?:\/(\d+))?\/?$/.exec(bare);
  if (!m) throw new InvalidInput(`"${raw}" is not a telegram ${what} (try @channel, t.me/channel or t.me/channel/123)`);
  return { channel: checkUsername(m[1], raw), post: m[2] === undefined ? undefined : checkPostId(m[2], raw) };
}

/** A channel: any channel form, or a post URL (its channel is meant). */
export function parseChannelRef(input: string | undefined): ChannelRef {
  const p = parse(input, 'channel reference (username, @username or t.me link)');
  const before = p.url?.searchParams.get('before') ?? undefined;
  if (before !== undefined && !/^\d{1,12}$/.test(before)) throw new InvalidInput(`"${input}": before=${before} is not a message id`);
  return before && !p.post ? { channel: p.channel, before } : { channel: p.channel };
}

/** One message: t.me/<channel>/<id> and the other post forms. */
export function parsePostRef(input: string | undefined): PostRef {
  const p = parse(input, 'post reference (t.me/channel/123 or channel/123)');
  if (!p.post) throw new InvalidInput(`"${(input ?? '').trim()}" names a channel, not a message: use t.me/<channel>/<message id>`);
  return { channel: p.channel, id: p.post };
}

/**
 * Search inside one channel (t.me only searches a channel's own history). The channel comes from
 * params.channel; without it the query may be a t.me/s/<channel>?q=<keyword> URL or "@channel keyword".
 */
export function parseSearchRef(query: string | undefined, channelParam: string | undefined): SearchRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a search keyword is required');
  if (channelParam !== undefined && channelParam.trim() !== '') {
    return { channel: parseChannelRef(channelParam).channel, q };
  }
  const url = asUrl(q);
  if (url && url.protocol !== 'tg:') {
    const keyword = url.searchParams.get('q')?.trim();
    if (!keyword) throw new InvalidInput(`params.query: "${q}" has no ?q=<keyword>; pass the keyword as query and the channel as params.channel`);
    const before = url.searchParams.get('before') ?? undefined;
    if (before !== undefined && !/^\d{1,12}$/.test(before)) throw new InvalidInput(`"${q}": before=${before} is not a message id`);
    return { channel: fromUrl(url, q).channel, q: keyword, ...(before ? { before } : {}) };
  }
  const m = /^@([A-Za-z][A-Za-z0-9_]{2,31})\s+(\S[\s\S]*)$/.exec(q);
  if (m) return { channel: m[1], q: m[2].trim() };
  throw new InvalidInput(
    'params.channel: telegram searches inside one public channel; pass params.channel (e.g. "durov"), or a query "@channel keyword", or a t.me/s/<channel>?q=<keyword> URL',
  );
}
