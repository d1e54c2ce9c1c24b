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
  /** Only on the reply pages (not inline under the root): proves the reply page was read. */
  fromReplyPage: string;
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
  expect(thread.map((x) => x[0])).toContain(c.fromReplyPage);
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
    expect(first.items.map((x) => x.cid)).not.toContain(c.fromReplyPage);
    const { result, requests } = await run(c, { replies: 'all', max_items: -1, ...(at > 0 ? { cursor: encodeCursor({ s: at }) } : {}) });
    const res = result as CommentsResult;
    expect(res.error).toBeUndefined();
    expect(requests.some((r) => c.replyRequest.test(r)), requests.join('\n')).toBe(true);
    checkTree(res, c);
  });
});
