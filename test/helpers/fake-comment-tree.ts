/**
 * A threaded comment section for the fake platform (q=tree): three top-level pages of two roots each,
 * the first reply of a thread inlined under its root (as douyin/bilibili do), the rest behind
 * GET /replies?q=tree&root=<cid>&page=<n>, two a page. Reply page 1 repeats the inlined reply (the walk
 * must not list it twice); r2d answers r2b (a reply to a reply).
 */
export interface TreeReply {
  id: string;
  text: string;
  parent?: string;
}

interface Root {
  id: string;
  replies: TreeReply[];
  inline: number;
}

const reply = (id: string, parent?: string): TreeReply => ({ id, text: `reply ${id}`, ...(parent ? { parent } : {}) });

const ROOTS: Root[] = [
  { id: 'r1', replies: [], inline: 0 },
  { id: 'r2', replies: ['r2a', 'r2b', 'r2c', 'r2d', 'r2e'].map((id) => reply(id, id === 'r2d' ? 'r2b' : undefined)), inline: 1 },
  { id: 'r3', replies: [reply('r3a')], inline: 1 },
  { id: 'r4', replies: ['r4a', 'r4b', 'r4c'].map((id) => reply(id)), inline: 0 },
  { id: 'r5', replies: [], inline: 0 },
  { id: 'r6', replies: ['r6a', 'r6b'].map((id) => reply(id)), inline: 0 },
];
const ROOTS_PER_PAGE = 2;
const REPLIES_PER_PAGE = 2;

/** The whole tree in the order a full walk lists it: each root, then its replies. */
export const TREE_ORDER: Array<{ cid: string; parent_id?: string }> = ROOTS.flatMap((r) => [
  { cid: r.id },
  ...r.replies.map((x) => ({ cid: x.id, parent_id: x.parent ?? r.id })),
]);
/** What the top-level pages alone carry (replies first). */
export const TREE_FIRST = ROOTS.flatMap((r) => [r.id, ...r.replies.slice(0, r.inline).map((x) => x.id)]);
export const TREE_ROOTS = ROOTS.map((r) => r.id);
export const TREE_TOTAL = TREE_ORDER.length;

/** Faults a test injects by request key: "top:<page>" or "<root>:<page>"; gone answers 404 (a deleted thread). */
export type TreeFaults = Map<string, 'fail' | 'hang' | 'gone'>;

export type TreeAnswer = { status: number; body: unknown } | 'hang';

export function commentTreeAnswer(path: string, root: string | null, page: number, faults: TreeFaults): TreeAnswer | undefined {
  if (path === '/comments') {
    const fault = faults.get(`top:${page}`);
    if (fault) return fault === 'hang' ? 'hang' : { status: 503, body: { err: 'down' } };
    const roots = ROOTS.slice((page - 1) * ROOTS_PER_PAGE, page * ROOTS_PER_PAGE);
    const items = roots.map((r) => ({ id: r.id, text: `root ${r.id}`, reply_total: r.replies.length, replies: r.replies.slice(0, r.inline) }));
    const more = page * ROOTS_PER_PAGE < ROOTS.length;
    return { status: 200, body: { items, total: TREE_TOTAL, next: more ? page + 1 : null } };
  }
  if (path === '/replies') {
    const r = ROOTS.find((x) => x.id === root);
    if (!r) return { status: 404, body: {} };
    const fault = faults.get(`${r.id}:${page}`);
    if (fault) return fault === 'hang' ? 'hang' : fault === 'gone' ? { status: 404, body: {} } : { status: 503, body: { err: 'down' } };
    const items = r.replies.slice((page - 1) * REPLIES_PER_PAGE, page * REPLIES_PER_PAGE);
    const more = page * REPLIES_PER_PAGE < r.replies.length;
    return { status: 200, body: { items, next: more ? page + 1 : null } };
  }
  return undefined;
}
