import type { MediaHarEntry } from './media-har.js';
import type { DownloadMedia } from './media-har.js';

/** Hand-made douyin answers for the download tests: a share page carrying the aweme (the web API answers empty). */
export function douyinPost(id: string, aweme: Record<string, unknown>): MediaHarEntry[] {
  const full = { aweme_id: id, desc: `post ${id}`, create_time: 1763500000, author: { uid: '3900000000000001', nickname: '旅行的人', unique_id: 'traveler_dl', sec_uid: 'MS4wLjABAAAAdownloadTestSecUid0000000000000000000000000' }, statistics: { digg_count: 1 }, ...aweme };
  const page = `<!DOCTYPE html><html><body><script>window._ROUTER_DATA = ${JSON.stringify({ loaderData: { 'video_(id)/page': { videoInfoRes: { status_code: 0, item_list: [full], filter_list: [] } } } })}</script></body></html>`;
  return [
    { url: `https://www.douyin.com/aweme/v1/web/aweme/detail/?device_platform=webapp&aid=6383&channel=channel_pc_web&aweme_id=${id}`, body: Buffer.alloc(0), mime: 'application/json; charset=utf-8' },
    { url: `https://www.iesdouyin.com/share/video/${id}/`, body: Buffer.from(page), mime: 'text/html; charset=utf-8' },
  ];
}

const CDN = 'https://v26-web.douyinvod.com';

/** A video aweme with two clean renditions, a playwm play_addr and a watermarked download_addr. */
export function douyinVideo(id: string, m: DownloadMedia, bodies: { small?: Buffer; large?: Buffer; wm?: Buffer } = {}): MediaHarEntry[] {
  const aweme = {
    aweme_type: 0,
    video: {
      duration: 2000,
      width: 320,
      height: 180,
      bit_rate: [
        { gear_name: 'normal_540', bit_rate: 500_000, play_addr: { url_list: [`${CDN}/${id}/small.mp4`], width: 160, height: 90 } },
        { gear_name: 'normal_1080', bit_rate: 2_000_000, play_addr: { url_list: [`${CDN}/${id}/large.mp4`], width: 320, height: 180 } },
      ],
      play_addr: { url_list: [`https://aweme.snssdk.com/aweme/v1/playwm/?video_id=${id}&ratio=720p&line=0`], width: 320, height: 180 },
      download_addr: { url_list: [`${CDN}/${id}/wm.mp4`], width: 320, height: 180 },
    },
  };
  return [
    ...douyinPost(id, aweme),
    { url: `${CDN}/${id}/small.mp4`, body: bodies.small ?? m.progressive, mime: 'video/mp4' },
    { url: `${CDN}/${id}/large.mp4`, body: bodies.large ?? m.progressiveLarge, mime: 'video/mp4' },
    { url: `${CDN}/${id}/wm.mp4`, body: bodies.wm ?? m.progressive, mime: 'video/mp4' },
  ];
}
