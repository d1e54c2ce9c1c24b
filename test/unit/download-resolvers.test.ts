import { describe, expect, it } from 'vitest';
import { playCandidates } from '../../src/platforms/bilibili/download.js';
import { awemeVideoCandidates } from '../../src/platforms/douyin/download.js';
import { appVideoCandidates, webVideoCandidates } from '../../src/platforms/tiktok/download.js';
import { youtubeCandidates } from '../../src/platforms/youtube/download.js';
import { rankCandidates } from '../../src/download/pick.js';

describe('download resolvers: what each platform answer offers', () => {
  it('youtube: formats that only come signature-ciphered offer nothing, and say so', () => {
    const pr = { streamingData: { formats: [{ itag: 18, signatureCipher: 's=abc&url=https%3A%2F%2Fr.googlevideo.com' }], adaptiveFormats: [{ itag: 137, mimeType: 'video/mp4', signatureCipher: 's=x' }] } };
    expect(youtubeCandidates(pr)).toEqual({ candidates: [], ciphered: true });
  });

  it('youtube: without an MP4 audio format the adaptive video is not offered (it would be silent); progressive is', () => {
    const pr = { streamingData: { formats: [{ itag: 18, url: 'https://r.googlevideo.com/18', width: 640, height: 360, qualityLabel: '360p' }], adaptiveFormats: [{ itag: 137, url: 'https://r.googlevideo.com/137', mimeType: 'video/mp4; codecs="avc1"', width: 1920, height: 1080 }] } };
    expect(youtubeCandidates(pr).candidates.map((c) => c.source_quality)).toEqual(['progressive_360p_itag18']);
  });

  it('bilibili: one progressive durl stream is offered; several segments are an honest error', () => {
    expect(playCandidates({ quality: 64, timelength: 5000, durl: [{ url: 'https://upos-sz-mirror.bilivideo.com/a.mp4' }] })).toMatchObject([{ source_quality: 'progressive_720p', duration_s: 5, watermark: false }]);
    expect(() => playCandidates({ durl: [{ url: 'https://upos.bilivideo.com/1.flv' }, { url: 'https://upos.bilivideo.com/2.flv' }] })).toThrow(/2 progressive segments/);
  });

  it('tiktok web: bytevc2 and video-only HEVC renditions are left out; a playAddr equal to downloadAddr is marked', () => {
    const video = {
      width: 576,
      height: 1024,
      bitrateInfo: [
        { GearName: 'normal_1080_0', Bitrate: 3e6, CodecType: 'bytevc2', PlayAddr: { UrlList: ['https://v16.tiktokcdn.com/vc2'], Width: 1080, Height: 1920 } },
        { GearName: 'normal_720_0', Bitrate: 1e6, CodecType: 'h265_hvc1', PlayAddr: { UrlList: ['https://v16.tiktokcdn.com/x/media-video-hvc1/'], Width: 720, Height: 1280 } },
        { GearName: 'normal_540_0', Bitrate: 8e5, CodecType: 'h264', PlayAddr: { UrlList: ['https://v16.tiktokcdn.com/540'], Width: 576, Height: 1024 } },
      ],
      playAddr: 'https://v16.tiktokcdn.com/same',
      downloadAddr: 'https://v16.tiktokcdn.com/same',
    };
    const ranked = rankCandidates(webVideoCandidates(video, 10), 'best');
    expect(ranked.map((c) => [c.source_quality, c.watermark])).toEqual([
      ['play_addr_no_watermark_normal_540_0_h264', false],
      ['play_addr_same_as_download_addr_maybe_watermarked', true],
    ]);
  });

  it('tiktok web: a rendition listing www.tiktok.com/aweme/v1/play/ first is fetched from its CDN copy', () => {
    const video = { bitrateInfo: [{ GearName: 'normal_540_0', Bitrate: 8e5, CodecType: 'h264', PlayAddr: { UrlList: ['https://www.tiktok.com/aweme/v1/play/?video_id=v1', 'https://v16.tiktokcdn.com/540'], Width: 576, Height: 1024, DataSize: 12345 } }] };
    expect(webVideoCandidates(video, 10)).toEqual([
      { kind: 'video', url: 'https://v16.tiktokcdn.com/540', w: 576, h: 1024, bitrate: 8e5, bytes: 12345, duration_s: 10, watermark: false, source_quality: 'play_addr_no_watermark_normal_540_0_h264' },
    ]);
  });

  it('tiktok app: bytevc2 renditions left out, sizes from the video (not the 720x720 placeholder), download_addr watermarked', () => {
    const c = appVideoCandidates(
      {
        width: 576,
        height: 1024,
        bit_rate: [
          { gear_name: 'adapt_1080_1', bit_rate: 3e6, play_addr: { url_key: 'v1_bytevc2_1080p', url_list: ['https://v16m.tiktokcdn.com/vc2'], width: 720, height: 720 } },
          { gear_name: 'normal_540_0', bit_rate: 8e5, play_addr: { url_key: 'v1_h264_540p', url_list: ['https://www.tiktok.com/aweme/v1/play/?video_id=v1', 'https://v16m.tiktokcdn.com/540'], width: 720, height: 720 } },
        ],
        download_addr: { url_list: ['https://v16m.tiktokcdn.com/dl'], width: 720, height: 720 },
      },
      10,
    );
    expect(c.map((x) => [x.source_quality, x.watermark, x.url, x.w, x.h])).toEqual([
      ['play_addr_no_watermark_normal_540_0_h264', false, 'https://v16m.tiktokcdn.com/540', 576, 1024],
      ['download_addr_watermarked', true, 'https://v16m.tiktokcdn.com/dl', 576, 1024],
    ]);
  });

  it('douyin/tiktok app: clean renditions before play_addr, download_addr only as the watermarked copy', () => {
    const c = awemeVideoCandidates({
      bit_rate: [{ gear_name: 'g720', bit_rate: 1e6, play_addr: { url_list: ['https://v3.douyinvod.com/720'], width: 720, height: 1280 } }],
      play_addr: { url_list: ['https://aweme.snssdk.com/aweme/v1/playwm/?video_id=v1'] },
      download_addr: { url_list: ['https://v3.douyinvod.com/dl'] },
    });
    expect(c.map((x) => [x.source_quality, x.watermark, x.url])).toEqual([
      ['play_addr_no_watermark_g720_1000kbps', false, 'https://v3.douyinvod.com/720'],
      ['play_addr_no_watermark', false, 'https://aweme.snssdk.com/aweme/v1/play/?video_id=v1'],
      ['download_addr_watermarked', true, 'https://v3.douyinvod.com/dl'],
    ]);
  });
});
