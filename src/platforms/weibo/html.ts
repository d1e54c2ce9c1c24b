import { load } from '../../crawl/cheerio.js';
import type { Trend } from '../../domain/results.js';
import { S_ORIGIN } from './api.js';
import { obj, parseCount, readsOf, stripHashes } from './parse.js';

/*
 * Pure parsers for weibo's HTML pages: the m.weibo.cn detail page (status JSON inlined as $render_data)
 * and the s.weibo.com hot boards.
 */

/** `var $render_data = [{…}][0] || {};` → the status object, or undefined when the page has none. */
export function renderDataStatus(html: string): Record<string, unknown> | undefined {
  const start = html.indexOf('$render_data');
  if (start < 0) return undefined;
  const open = html.indexOf('[', start);
  const close = html.indexOf('][0]', open);
  if (open < 0 || close < 0) return undefined;
  try {
    const list = JSON.parse(html.slice(open, close + 1)) as unknown;
    return Array.isArray(list) ? obj(obj(list[0])?.status) : undefined;
  } catch {
    return undefined;
  }
}

/** The message of m.weibo.cn's error page (deleted or hidden status), when the page is one. */
export function errorPageMessage(html: string): string | undefined {
  if (!/h5-404|h5-4con|微博不存在|暂无查看权限|已被删除/.test(html)) return undefined;
  const $ = load(html);
  const msg = $('.h5-4con').first().text().trim();
  return msg || (/(微博不存在|暂无查看权限|已被删除)/.exec(html)?.[1] ?? 'error page');
}

const absolute = (href: string | undefined): string | undefined => {
  if (!href) return undefined;
  try {
    return new URL(href, S_ORIGIN).toString();
  } catch {
    return undefined;
  }
};

/**
 * s.weibo.com/top/summary?cate=realtimehot. Mobile markup: `ul.list_a li a` with `strong.hot` rank,
 * `span` word and `em` heat; the pinned entry has no rank and "•" entries are promoted, so both are
 * skipped. Desktop markup (`td.td-01` rank, `td.td-02 a` word, `td.td-02 span` heat) is read too.
 */
export function summaryRealtimehot(html: string): Trend[] {
  const $ = load(html);
  const trends: Trend[] = [];
  const push = (rankText: string, word: string, heat: string, href: string | undefined): void => {
    const rank = /^\d{1,9}$/.test(rankText.trim()) ? Number(rankText.trim()) : undefined;
    const w = word.trim();
    if (!rank || !w) return;
    const t: Trend = { word: w, source: 'weibo', rank };
    const hot = parseCount(heat);
    if (hot !== undefined) t.hot_value = hot;
    const url = absolute(href);
    if (url) t.url = url;
    trends.push(t);
  };
  $('ul.list_a > li > a').each((_, a) => {
    const el = $(a);
    const span = el.find('span').first().clone();
    const heat = span.find('em').text();
    span.find('em').remove();
    push(el.find('strong').first().text(), span.text(), heat, el.attr('href'));
  });
  if (trends.length === 0) {
    $('tr').each((_, tr) => {
      const row = $(tr);
      const link = row.find('td.td-02 a').first();
      push(row.find('td.td-01').first().text(), link.text(), row.find('td.td-02 span').first().text(), link.attr('href'));
    });
  }
  return trends;
}

/** s.weibo.com/top/summary?cate=topicband: `ul.list_b li a` with `em` rank, `h2` "#topic#", `span` "N讨论 M阅读". */
export function summaryTopicband(html: string): Trend[] {
  const $ = load(html);
  const trends: Trend[] = [];
  $('ul.list_b > li > a').each((_, a) => {
    const el = $(a);
    const rankText = el.find('em').first().text().trim();
    const word = stripHashes(el.find('h2').first().text());
    if (!/^\d{1,9}$/.test(rankText) || !word) return;
    const t: Trend = { word, source: 'weibo', rank: Number(rankText) };
    const reads = readsOf(el.find('article > span').first().text());
    if (reads !== undefined) t.hot_value = reads;
    const url = absolute(el.attr('href'));
    if (url) t.url = url;
    trends.push(t);
  });
  return trends;
}
