import { describe, it } from 'vitest';
import { resolve } from 'node:path';
import { runAction } from '../helpers/run-action.js';
const S = resolve(process.cwd(), 'sandbox/instagram');
const SESSION = { cookies: 'sessionid=52418700001%3Aabc%3A12; csrftoken=SbxWriterCsrf0001; ds_user_id=52418700001' };
describe('scratch', () => {
  it('runs', async () => {
    for (const [action, params, session] of [
      ['user', { query: '@harborcook' }],
      ['posts', { query: 'harborcook', limit: 10 }],
      ['posts', { query: 'harborcook', limit: 10 }, SESSION],
      ['posts', { query: 'harborcook', tab: 'reels' }, SESSION],
      ['posts', { query: 'harborcook', tab: 'reels' }],
      ['detail', { query: 'DH1xO0naABl' }],
      ['detail', { query: 'https://www.instagram.com/p/DH1xO0naABm/' }],
      ['detail', { query: 'DH1xO0naABq' }],
      ['detail', { query: 'https://www.instagram.com/share/reel/BAsbxHarbor1/' }],
      ['detail', { query: '3600000000000000103' }, SESSION],
      ['comments', { query: 'DH1xO0naABl' }],
      ['comments', { query: 'DH1xO0naABl', replies_of: '18010000000000001' }],
      ['comments', { query: 'DH1xO0naABn' }, SESSION],
      ['comments', { query: 'DH1xO0naABn', replies_of: '18010000000000021' }, SESSION],
      ['comments', { query: 'DH1xO0naABn' }],
      ['search', { query: 'harbor', type: 'users' }],
      ['search', { query: 'gull', type: 'users' }],
      ['search', { query: '#harborfood' }, SESSION],
      ['search', { query: '#harborfood' }],
      ['user', { query: 'nosuchharbor' }],
      ['user', { query: 'walledharbor' }],
      ['posts', { query: 'privateharbor' }],
      ['posts', { query: '52418700001', tab: 'tagged' }],
      ['comment.create', { target: 'DH1xO0naABl', text: 'Looks delicious', confirm: true }, SESSION],
      ['comment.create', { target: 'DH1xO0naABn', text: 'Looks delicious', confirm: true }, SESSION],
    ] as const) {
      const { result, requests, warnings } = await runAction({ source: 'instagram', action, params, replay: [S], session } as any);
      console.log(action, JSON.stringify(params), JSON.stringify(result).slice(0, 500), requests, warnings);
    }
  });
});
