import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Real media the tests make with ffmpeg (testsrc), cached per machine; fails loudly without ffmpeg. */
export interface MediaFiles {
  jpg: Buffer;
  mp4: Buffer;
  /** Longer than the preview's 240 s limit, small in bytes. */
  longMp4: Buffer;
  dir: string;
}

let cached: MediaFiles | undefined;

const MEDIA_DIR = join(tmpdir(), 'crawler-test-media-v1');

/** Makes a media file with ffmpeg once per machine (kept in the temp dir) and reads it. */
function make(name: string, args: string[]): Buffer {
  mkdirSync(MEDIA_DIR, { recursive: true });
  const out = join(MEDIA_DIR, name);
  if (!existsSync(out)) {
    try {
      execFileSync('ffmpeg', ['-nostdin', '-y', '-loglevel', 'error', ...args, `${out}.tmp.${name.split('.').pop()}`], { stdio: 'pipe' });
      execFileSync('mv', [`${out}.tmp.${name.split('.').pop()}`, out]);
    } catch (e) {
      throw new Error(`tests need ffmpeg on PATH (Debian package ffmpeg) to make media: ${(e as Error).message}`);
    }
  }
  return readFileSync(out);
}

let hd60: Buffer | undefined;

/** A 60 s 1280x720 30 fps H.264 source, made on first use only (the preview benchmark's input). */
export function hd60Mp4(): Buffer {
  hd60 ??= make('hd60-720p.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30', '-t', '60', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-movflags', '+faststart']);
  return hd60;
}

export function mediaFiles(): MediaFiles {
  if (cached) return cached;
  const dir = MEDIA_DIR;
  cached = {
    dir,
    jpg: make('frame.jpg', ['-f', 'lavfi', '-i', 'testsrc=size=320x240', '-frames:v', '1']),
    mp4: make('clip.mp4', ['-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-f', 'lavfi', '-i', 'sine=frequency=440', '-t', '6', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', '-movflags', '+faststart']),
    longMp4: make('long.mp4', ['-f', 'lavfi', '-i', 'color=c=blue:size=160x120:rate=2', '-t', '250', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-movflags', '+faststart']),
  };
  return cached;
}
