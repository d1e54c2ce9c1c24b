import { it } from 'vitest';
import { runAction } from '../helpers/run-action.js';
const S = 'sandbox/zhihu/';
it('scratch', async () => {
  for (const [action, params, files] of [
    ['search', { query: '咖啡', limit: 5 }, ['search-web-coffee.har', 'udid-mint.har']],
    ['search', { query: '验证' }, ['error-search-captcha.har']],
    ['user', { query: 'https://www.zhihu.com/people/sandbox-writer/answers' }, ['user-sandbox-writer.har']],
    ['user', { query: '@sandbox-org' }, ['user-page-fallback.har']],
    ['posts', { query: 'sandbox-writer', max_items: -1 }, ['posts-answers-sandbox-writer.har']],
    ['posts', { query: 'sandbox-writer', tab: 'articles' }, ['posts-articles-sandbox-writer.har']],
    ['posts', { query: 'sandbox-quiet' }, ['posts-empty.har']],
    ['posts', { query: 'sandbox-private' }, ['error-posts-login.har']],
    ['detail', { query: 'https://www.zhihu.com/question/1800000000000000001/answer/1900000000000000001' }, ['detail-answer-1900000000000000001.har']],
    ['detail', { query: 'https://zhuanlan.zhihu.com/p/1700000000000000001' }, ['detail-article-page-fallback.har', 'udid-mint.har']],
    ['detail', { query: 'question:1800000000000000001' }, ['detail-question-1800000000000000001.har']],
    ['detail', { query: 'https://www.zhihu.com/zvideo/1600000000000000001' }, ['detail-zvideo-1600000000000000001.har']],
    ['detail', { query: 'answer:1900000000000000404' }, ['error-detail-404.har']],
    ['comments', { query: 'answer:1900000000000000001' }, ['comments-answer-1900000000000000001.har']],
    ['comments', { query: 'answer:1900000000000000001', replies_of: '11000000001' }, ['replies-11000000001.har']],
    ['comments', { query: 'https://zhuanlan.zhihu.com/p/1700000000000000002' }, ['comments-404-empty.har']],
    ['hot', { category: 'science' }, ['hot-science-desktop.har']],
    ['hot', { category: 'digital' }, ['hot-digital-401-then-app.har']],
    ['hot', { category: 'car' }, ['error-hot-login.har']],
    ['trending', {}, ['trending-hot-words.har']],
  ] as const) {
    const r = await runAction({ source: 'zhihu', action, params: params as any, replay: files.map((f) => S + f) });
    console.log('=====', action, JSON.stringify(params), '\n', JSON.stringify(r.result).slice(0, 1800), '\n', r.requests.map((x) => x.slice(0, 140)), r.warnings);
  }
});
