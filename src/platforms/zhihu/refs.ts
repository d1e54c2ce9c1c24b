import { InvalidInput } from '../../crawl/errors.js';

/*
 * Reference forms (cn-platforms.md §6; MediaCrawler judge_zhihu_url): an answer is
 * www.zhihu.com/question/<qid>/answer/<aid> or /answer/<aid>; an article zhuanlan.zhihu.com/p/<id>; a question
 * /question/<qid>; a video /zvideo/<id>; a member /people/<url_token> or /org/<url_token>. The API's own links
 * (api.zhihu.com/answers/<id>, www.zhihu.com/api/v4/articles/<id>, …) and our typed native ids
 * ("answer:<id>", "zhihu:article:<id>") are accepted too. Zhihu has no short-link service (share links are
 * the canonical URLs), so nothing here needs a network round trip.
 */
export const WWW = 'https://www.zhihu.com';
export const ZHUANLAN = 'https://zhuanlan.zhihu.com';

export const CONTENT_KINDS = ['answer', 'article', 'question', 'zvideo'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export interface ContentRef {
  kind: ContentKind;
  id: string;
  /** The question an answer belongs to, when the reference says so. */
  question?: string;
}

/** Zhihu content ids are decimal (older ones 6-10 digits, newer ones 19). */
const CONTENT_ID = /^\d{1,20}$/;
/** url_token: the member's slug; the 32-hex member id is accepted wherever a token is. */
const URL_TOKEN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ZHIHU_HOST = /^(?:[a-z0-9-]+\.)*zhihu\.com$/i;

export const isContentId = (s: string): boolean => CONTENT_ID.test(s);
export const isUrlToken = (s: string): boolean => URL_TOKEN.test(s);

export function contentUrl(ref: ContentRef): string {
  switch (ref.kind) {
    case 'answer':
      return ref.question ? `${WWW}/question/${ref.question}/answer/${ref.id}` : `${WWW}/answer/${ref.id}`;
    case 'article':
      return `${ZHUANLAN}/p/${ref.id}`;
    case 'question':
      return `${WWW}/question/${ref.id}`;
    case 'zvideo':
      return `${WWW}/zvideo/${ref.id}`;
  }
}

export const peopleUrl = (token: string): string => `${WWW}/people/${encodeURIComponent(token)}`;
export const nativeId = (ref: Pick<ContentRef, 'kind' | 'id'>): string => `${ref.kind}:${ref.id}`;

function asUrl(input: string): URL | undefined {
  const found = /https?:\/\/[^\s"'<>，。]+/i.exec(input)?.[0] ?? (/^(?:[a-z0-9-]+\.)*zhihu\.com(?:[/?#]|$)/i.test(input) ? `https://${input}` : undefined);
  if (!found) return undefined;
  try {
    return new URL(found);
  } catch {
    return undefined;
  }
}

/** The API path segments that name a content kind (plural), as in api.zhihu.com/answers/<id>. */
const API_KINDS: Record<string, ContentKind> = { answers: 'answer', articles: 'article', questions: 'question', zvideos: 'zvideo' };

export function contentFromUrl(url: URL): ContentRef | undefined {
  if (!ZHIHU_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  const host = url.hostname.toLowerCase();
  const at = (name: string): string | undefined => {
    const i = parts.indexOf(name);
    const v = i >= 0 ? parts[i + 1] : undefined;
    return v && isContentId(v) ? v : undefined;
  };
  const answer = at('answer');
  if (answer) return { kind: 'answer', id: answer, ...(at('question') ? { question: at('question') } : {}) };
  if (host === 'zhuanlan.zhihu.com' || parts[0] === 'p') {
    const p = at('p');
    if (p) return { kind: 'article', id: p };
  }
  const zvideo = at('zvideo');
  if (zvideo) return { kind: 'zvideo', id: zvideo };
  const question = at('question');
  if (question) return { kind: 'question', id: question };
  // API links: /answers/<id>, /api/v4/articles/<id>, …
  for (let i = 0; i < parts.length - 1; i++) {
    const kind = API_KINDS[parts[i]!];
    if (kind && isContentId(parts[i + 1]!)) return { kind, id: parts[i + 1]! };
  }
  return undefined;
}

const FORMS = 'a zhihu link (www.zhihu.com/question/<qid>/answer/<aid>, /answer/<aid>, zhuanlan.zhihu.com/p/<id>, /question/<qid>, /zvideo/<id>) or a typed id (answer:<id>, article:<id>, question:<id>, zvideo:<id>)';

export function parseContentRef(query: string | undefined, allowed: readonly ContentKind[] = CONTENT_KINDS): ContentRef {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput(`params.query: ${FORMS} is required`);
  const typed = /^(?:zhihu:)?(answer|article|question|zvideo):(\d{1,20})$/i.exec(q);
  const ref: ContentRef | undefined = typed ? { kind: typed[1]!.toLowerCase() as ContentKind, id: typed[2]! } : (() => {
    const url = asUrl(q);
    return url ? contentFromUrl(url) : undefined;
  })();
  if (!ref) {
    if (isContentId(q)) throw new InvalidInput(`params.query: "${q}" is a bare number, and zhihu numbers answers, articles, questions and videos separately; give ${FORMS}`);
    throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not ${FORMS}`);
  }
  if (!allowed.includes(ref.kind)) throw new InvalidInput(`params.query: this action takes ${allowed.join(', ')} references, not a ${ref.kind}`);
  return ref;
}

/** A member's url_token (or 32-hex id) from /people/<t>, /org/<t>, the API's /members|people/<t>, @t, people:<t> or t. */
export function parseMemberRef(query: string | undefined): string {
  const q = (query ?? '').trim();
  if (!q) throw new InvalidInput('params.query: a zhihu member (url_token, www.zhihu.com/people/<url_token> or /org/<url_token> link) is required');
  const bare = /^(?:@|(?:zhihu:)?people:)?([^/\s?#]+)$/.exec(q)?.[1];
  if (bare && isUrlToken(bare) && !asUrl(q)) return bare;
  const url = asUrl(q);
  if (url && ZHIHU_HOST.test(url.hostname)) {
    const parts = url.pathname.split('/').filter(Boolean).map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
    for (let i = 0; i < parts.length - 1; i++) {
      if (['people', 'org', 'members'].includes(parts[i]!) && isUrlToken(parts[i + 1]!)) return parts[i + 1]!;
    }
  }
  throw new InvalidInput(`params.query: "${q.slice(0, 120)}" is not a zhihu member reference (a url_token, @url_token, or a www.zhihu.com/people/<url_token> or /org/<url_token> link)`);
}

/** Column ids: "c_<digits>" for newer columns, a slug for older ones. */
const COLUMN_ID = /^(?:c_\d{6,24}|[A-Za-z][A-Za-z0-9_-]{1,63})$/;
export const columnUrl = (id: string): string => `${ZHUANLAN}/${id}`;

/**
 * A column (专栏) reference, when the query is one: zhuanlan.zhihu.com/<id>, www.zhihu.com/column/<id>,
 * column:<id>, or a bare c_<digits>. Anything else is left to the member forms.
 */
export function parseColumnRef(query: string | undefined): string | undefined {
  const q = (query ?? '').trim();
  const typed = /^(?:zhihu:)?column:(.+)$/.exec(q)?.[1] ?? (/^c_\d{6,24}$/.test(q) ? q : undefined);
  if (typed !== undefined) {
    if (!COLUMN_ID.test(typed)) throw new InvalidInput(`params.query: "${typed.slice(0, 80)}" is not a zhihu column id (c_<digits> or the column's slug)`);
    return typed;
  }
  const url = asUrl(q);
  if (!url || !ZHIHU_HOST.test(url.hostname)) return undefined;
  const parts = url.pathname.split('/').filter(Boolean);
  if (url.hostname.toLowerCase() === 'zhuanlan.zhihu.com' && parts.length === 1 && parts[0] !== 'p' && COLUMN_ID.test(parts[0]!)) return parts[0];
  const i = parts.indexOf('column');
  return i >= 0 && parts[i + 1] && COLUMN_ID.test(parts[i + 1]!) ? parts[i + 1] : undefined;
}
