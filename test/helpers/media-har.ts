import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Small real media made with ffmpeg at test time (cached per machine in the temp dir), for the download
 * tests: the DASH cases need video and audio as separate streams, the rest a progressive clip or images.
 */
export interface DownloadMedia {
  /** 2 s, 160×90, H.264, no audio (a DASH video stream). */
  videoOnly: Buffer;
  /** 2 s AAC, no video (a DASH audio stream / adaptive audio format). */
  audioOnly: Buffer;
  /** 2 s, 160×90, H.264 + AAC in one MP4 (a progressive stream). */
  progressive: Buffer;
  /** 3 s, 320×180, H.264 + AAC: a bigger rendition of the same clip (quality picks tell the two apart). */
  progressiveLarge: Buffer;
  /** 64×48 images. */
  jpeg: Buffer;
  png: Buffer;
  webp: Buffer;
}

const DIR = join(tmpdir(), 'crawler-test-media-dl-v1');
let cached: DownloadMedia | undefined;

function make(name: string, args: string[]): Buffer {
  mkdirSync(DIR, { recursive: true });
  const out = join(DIR, name);
  if (!existsSync(out)) {
    const tmp = join(DIR, `tmp-${process.pid}-${name}`);
    try {
      execFileSync('ffmpeg', ['-nostdin', '-y', '-loglevel', 'error', ...args, tmp], { stdio: 'pipe' });
    } catch (e) {
      throw new Error(`download tests need ffmpeg on PATH to make media: ${(e as Error).message}`);
    }
    renameSync(tmp, out);
  }
  return readFileSync(out);
}

const VIDEO = ['-f', 'lavfi', '-i', 'testsrc=size=160x90:rate=25'];
const AUDIO = ['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100'];
const H264 = ['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'];

export function downloadMedia(): DownloadMedia {
  cached ??= {
    videoOnly: make('video-only.mp4', [...VIDEO, '-t', '2', ...H264, '-an', '-movflags', '+faststart', '-f', 'mp4']),
    audioOnly: make('audio-only.m4a', [...AUDIO, '-t', '2', '-vn', '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', '-f', 'mp4']),
    progressive: make('progressive.mp4', [...VIDEO, ...AUDIO, '-t', '2', ...H264, '-c:a', 'aac', '-b:a', '64k', '-shortest', '-movflags', '+faststart', '-f', 'mp4']),
    progressiveLarge: make('progressive-large.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=25', ...AUDIO, '-t', '3', ...H264, '-c:a', 'aac', '-shortest', '-movflags', '+faststart', '-f', 'mp4']),
    jpeg: make('image.jpg', ['-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', '-f', 'image2', '-c:v', 'mjpeg']),
    png: make('image.png', ['-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', '-f', 'image2', '-c:v', 'png']),
    webp: make('image.webp', ['-f', 'lavfi', '-i', 'testsrc=size=64x48', '-frames:v', '1', '-f', 'webp']),
  };
  return cached;
}

export interface MediaHarEntry {
  url: string;
  body: Buffer;
  mime: string;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
}

/**
 * Writes a hand-made HAR answering each media URL with its body (base64), and returns its path: pass it
 * with the platform's real fixture HAR in CRAWLER_REPLAY (comma-separated) so `download` resolves the post
 * from the recording and fetches these bodies.
 */
export function mediaHar(entries: MediaHarEntry[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'media-har-'));
  const file = join(dir, 'media.har');
  const har = {
    log: {
      version: '1.2',
      creator: { name: 'test/helpers/media-har.ts', version: '1' },
      comment: 'hand-made: media bodies made with ffmpeg at test time for the download tests',
      entries: entries.map((e) => ({
        startedDateTime: new Date(0).toISOString(),
        time: 0,
        request: { method: 'GET', url: e.url, httpVersion: 'HTTP/1.1', headers: [], queryString: [], cookies: [], headersSize: -1, bodySize: 0 },
        response: {
          status: e.status ?? 200,
          statusText: 'OK',
          httpVersion: 'HTTP/1.1',
          headers: [{ name: 'content-type', value: e.mime }, ...Object.entries(e.headers ?? {}).map(([name, value]) => ({ name, value }))],
          cookies: [],
          content: { size: e.body.length, mimeType: e.mime, encoding: 'base64', text: e.body.toString('base64') },
          redirectURL: '',
          headersSize: -1,
          bodySize: e.body.length,
        },
        cache: {},
        timings: { send: 0, wait: 0, receive: 0 },
      })),
    },
  };
  writeFileSync(file, JSON.stringify(har));
  return file;
}
