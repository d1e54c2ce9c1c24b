import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CommentsResult } from '../../src/domain/results.js';
import { encodeCursor } from '../../src/tasks/cursor.js';
import { FIXTURES, runAction, SANDBOX } from '../helpers/run-action.js';

/*
 * replies=all through the real adapters on recordings: the walk asks the platform's reply endpoint for
 * every thread the top-level page does not hold whole, and lists each thread's replies right after its
 * root with parent_id set. real(): /work/shared/fixtures (read in place); sand(): the project's hand-made
 * recordings (sandbox/, each marked hand-made in its HAR comment).
 */
const real = (p: string, f: string) => resolve(FIXTURES, p, f);
const sand = (p: string, f: string) => resolve(SANDBOX, p, f);

interface TreeCase {
  source: string;
  query: string;
  replay: string[];
  session?: { cookies?: string };
  /** A request only the reply walk makes. */
  replyRequest: RegExp;
  root: string;
  /** The root's replies as the walk must list them: [cid, parent_id]. */
  replies: Array<[string, string]>;
  /** Only on the reply pages (not inline under the root): proves the reply page was read. Absent: the page repeats the inline ones. */
  fromReplyPage?: string;
  real: boolean;
}

function checkTree(res: CommentsResult, c: TreeCase) {
  const cids = res.items.map((x) => x.cid);
  expect(new Set(cids).size, 'no comment twice').toBe(cids.length);
  const at = cids.indexOf(c.root);
  expect(at, `root ${c.root} listed`).toBeGreaterThanOrEqual(0);
  expect(res.items[at].parent_id).toBeUndefined();
  let end = at + 1;
  while (end < res.items.length && res.items[end].parent_id) end++;
  const thread = res.items.slice(at + 1, end).map((x) => [x.cid, x.parent_id]);
  expect(thread, 'the thread right after its root').toEqual(expect.arrayContaining(c.replies));
  if (c.fromReplyPage) expect(thread.map((x) => x[0])).toContain(c.fromReplyPage);
}

const CASES: TreeCase[] = [
  {
    source: 'tieba',
    query: 'https://tieba.baidu.com/p/9119688421',
    replay: [real('tieba', 'comments-thread-9119688421-page1-dom.har'), real('tieba', 'replies-lzl-9119688421-pid150726500312.har')],
    replyRequest: /tieba\.baidu\.com\/p\/comment\?tid=9119688421&pid=150726500312/,
    root: '150726500312',
    replies: [['150726504693', '150726500312'], ['150726506822', '150726500312'], ['150726536076', '150726500312']],
    fromReplyPage: '150726504693',
    real: true,
  },
  {
    source: 'douyin',
    query: '7300000000000000001',
    replay: [sand('douyin', 'comments-7300000000000000001.har'), sand('douyin', 'replies-7300000000000100001.har')],
    replyRequest: /comment\/list\/reply\/.*comment_id=7300000000000100001/,
    root: '7300000000000100001',
    replies: [['7300000000000200001', '7300000000000100001'], ['7300000000000200002', '7300000000000200001']],
    fromReplyPage: '7300000000000200002',
    real: false,
  },
  {
    source: 'tiktok',
    query: '7345678901234567890',
    replay: [sand('tiktok', 'comments-7345678901234567890.har'), sand('tiktok', 'comments-replies-7345679000000000001.har')],
    replyRequest: /comment\/list\/reply\/.*comment_id=7345679000000000001/,
    root: '7345679000000000001',
    replies: [['7345679000000000101', '7345679000000000001'], ['7345679000000000102', '7345679000000000101']],
    fromReplyPage: '7345679000000000102',
    real: false,
  },
  {
    source: 'weibo',
    query: '4645748019299849',
    replay: [sand('weibo', 'comments-hotflow-4645748019299849.har'), sand('weibo', 'replies-hotflowchild-4645751278535701.har')],
    replyRequest: /hotFlowChild\?cid=4645751278535701/,
    root: '4645751278535701',
    replies: [['4645752654267183', '4645751278535701'], ['4645753211847529', '4645751278535701'], ['4645758842364917', '4645751278535701']],
    fromReplyPage: '4645758842364917',
    real: false,
  },
  {
    source: 'xiaohongshu',
    query: 'https://www.xiaohongshu.com/explore/6745c0a1000000000703d1e1?xsec_token=ABsbxN1travelToken0123456789abcdefGHIJKLmn-_w%3D&xsec_source=pc_search',
    replay: [sand('xiaohongshu', 'comments-6745c0a1000000000703d1e1.har'), sand('xiaohongshu', 'replies-6746a1a1000000001b01e1e1.har')],
    session: { cookies: 'web_session=040069b5a274fb57675ab453ab354bc8b20e29; a1=19223bd30fdyw4izqnvssalktamaab9jcq1a9gdne50000166530; webId=89daffcfb24ae99c9b86c49c47aa5f14' },
    replyRequest: /comment\/sub\/page\?.*root_comment_id=6746a1a1000000001b01e1e1/,
    root: '6746a1a1000000001b01e1e1',
    replies: [['6746a2a2000000001c02e2e2', '6746a1a1000000001b01e1e1'], ['6746a3a3000000001d03e3e3', '6746a2a2000000001c02e2e2']],
    fromReplyPage: '6746a3a3000000001d03e3e3',
    real: false,
  },
  {
    source: 'zhihu',
    query: 'answer:1900000000000000001',
    replay: [sand('zhihu', 'comments-answer-1900000000000000001.har'), sand('zhihu', 'replies-11000000001.har')],
    replyRequest: /comment\/11000000001\/child_comment/,
    root: '11000000001',
    replies: [['11000000101', '11000000001'], ['11000000102', '11000000101']],
    fromReplyPage: '11000000101',
    real: false,
  },
  {
    source: 'kuaishou',
    query: '3xs9d8k2mf4nq6e',
    replay: [sand('kuaishou', 'comments-3xs9d8k2mf4nq6e.har')],
    replyRequest: /comment\/sublist/,
    root: '1174060219763',
    replies: [['1174070000010', '1174060219763'], ['1174080000011', '1174060219763']],
    fromReplyPage: '1174070000010',
    real: false,
  },
  {
    source: 'instagram',
    query: 'DH1xO0naABl',
    replay: [sand('instagram', 'site-pages.har'), sand('instagram', 'comments-DH1xO0naABl.har'), sand('instagram', 'replies-18010000000000001.har')],
    replyRequest: /graphql/,
    root: '18010000000000001',
    replies: [['18010000000000011', '18010000000000001']],
    fromReplyPage: '18010000000000011',
    real: false,
  },
  {
    source: 'threads',
    query: '3712000000000000001',
    // The post page lies among the sandbox's detail recordings: the whole folder answers.
    replay: [sand('threads', '')],
    replyRequest: /graphql/,
    root: '3712000000000000101',
    // The post page chains 102 under 101 and 103 under 102; 104 answers 101 directly and only its own page has it.
    replies: [['3712000000000000102', '3712000000000000101'], ['3712000000000000103', '3712000000000000102'], ['3712000000000000104', '3712000000000000101']],
    fromReplyPage: '3712000000000000104',
    real: false,
  },
  {
    source: 'bilibili',
    query: 'av201022189',
    // The real reply page of root 3030790837; the top-level page that lists the root is hand-made (no
    // recording of that video's comment list exists), as are the WBI key and buvid answers.
    replay: [
      real('bilibili', 'replies-reply-av201022189-root3030790837.har'),
      resolve(process.cwd(), 'test/recordings/bilibili/comments-av201022189.hand-made.har'),
      sand('bilibili', 'finger-spi.har'),
      sand('bilibili', 'nav-wbi-keys.har'),
    ],
    replyRequest: /x\/v2\/reply\/reply\?.*oid=201022189&root=3030790837/,
    root: '3030790837',
    replies: [['3030802207', '3030790837'], ['3030978856', '3030790837']],
    fromReplyPage: '3030978856',
    real: true,
  },
  {
    source: 'bilibili',
    query: 'BV1ac5yzhE94',
    // The first page inlines both replies of 260000000002 (one answers the other): its reply_total of 2
    // counts the thread, so the walk reads the thread's page to be sure, and lists nothing twice.
    replay: [sand('bilibili', '')],
    replyRequest: /x\/v2\/reply\/reply\?.*root=260000000002/,
    root: '260000000002',
    replies: [['260000000003', '260000000002'], ['260000000004', '260000000003']],
    real: false,
  },
];

const run = (c: TreeCase, params: Record<string, unknown>) =>
  runAction({ source: c.source, action: 'comments', params: { query: c.query, ...params }, replay: c.replay, session: c.session });

describe.each(CASES)('$source comments replies=all', (c) => {
  it(`reads the reply pages and threads them under their root (${c.real ? 'real' : 'hand-made'} reply recordings)`, async () => {
    // Recordings hold one thread's replies, not every thread's: the walk starts at that thread's root, as a
    // resumed walk would (a thread the recordings miss ends the walk there, with a cursor).
    const first = (await run(c, { limit: 100 })).result as CommentsResult;
    const at = first.items.findIndex((x) => x.cid === c.root);
    expect(at, `${c.root} on the first page`).toBeGreaterThanOrEqual(0);
    if (c.fromReplyPage) expect(first.items.map((x) => x.cid)).not.toContain(c.fromReplyPage);
    const { result, requests } = await run(c, { replies: 'all', max_items: -1, ...(at > 0 ? { cursor: encodeCursor({ s: at }) } : {}) });
    const res = result as CommentsResult;
    expect(res.error).toBeUndefined();
    expect(requests.some((r) => c.replyRequest.test(r)), requests.join('\n')).toBe(true);
    checkTree(res, c);
  });
});

describe('youtube comments replies=all (real recordings)', () => {
  const comments = real('youtube', 'comments-video-xaQJbozY_Is.har');
  const replyPage = real('youtube', 'replies-comment-xaQJbozY_Is.har');
  const recorded = JSON.parse(readFileSync(replyPage, 'utf8')).log.entries[0].response.content.text as string;
  const nextToken = /"token":\s*"([^"]+)"/.exec(recorded)![1];

  it('after the thread\'s first reply page, asks for the continuation that page names', async () => {
    const { result, warnings } = await runAction({ source: 'youtube', action: 'comments', params: { query: 'xaQJbozY_Is', replies: 'all', max_items: -1 }, replay: [comments, replyPage] });
    const res = result as CommentsResult;
    expect(res.items[0]).toMatchObject({ cid: 'UgwSOM0QHBLysE3vZE54AaABAg' });
    expect(res.items.slice(1, 11).every((x) => x.parent_id === 'UgwSOM0QHBLysE3vZE54AaABAg')).toBe(true);
    // The recordings end there: the walk stops at the thread's second reply page and keeps what it has.
    expect(warnings.join('\n')).toContain(`continuation differs (${nextToken.slice(0, 80)}`);
    expect(res.has_more).toBe(true);
  });
});

describe('whole-tree platforms: replies=all walks the pages as sent, none keeps the top level', () => {
  const cases = [
    { source: 'reddit', query: 'https://www.reddit.com/r/funny/comments/3hahrw/ba_dum_tsss/', replay: [real('reddit', 'replies-morechildren-3hahrw.har')], real: true },
    { source: 'twitter', query: '1649191520250245121', replay: [real('twitter', 'replies-tweet-1649191520250245121.har')], session: { cookies: 'auth_token=0123456789abcdef0123456789abcdef01234567; ct0=feedfacefeedfacefeedfacefeedface' }, real: true },
    { source: 'mastodon', query: 'https://mastodon.social/@river_otter/113500000000000400', replay: [sand('mastodon', '')], real: false },
  ];
  it.each(cases)('$source', async (c) => {
    const all = (await runAction({ source: c.source, action: 'comments', params: { query: c.query, replies: 'all', max_items: -1 }, replay: c.replay, session: c.session })).result as CommentsResult;
    expect(all.error).toBeUndefined();
    const seen = new Set<string>();
    for (const x of all.items) {
      // Every reply comes after what it answers (or answers something outside the listing: the post, a cut-off).
      if (x.parent_id && all.items.some((y) => y.cid === x.parent_id)) expect(seen.has(x.parent_id), `${x.cid} after ${x.parent_id}`).toBe(true);
      expect(seen.has(x.cid)).toBe(false);
      seen.add(x.cid);
    }
    expect(all.items.some((x) => x.parent_id)).toBe(true);
    const none = (await runAction({ source: c.source, action: 'comments', params: { query: c.query, replies: 'none', max_items: -1 }, replay: c.replay, session: c.session })).result as CommentsResult;
    expect(none.items.map((x) => x.cid)).toEqual(all.items.filter((x) => !x.parent_id).map((x) => x.cid));
  });
});
