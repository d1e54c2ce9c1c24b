import { spawn } from 'node:child_process';
import { run } from '../media/preview/ffmpeg.js';

/** Joins a video-only and an audio-only stream into one MP4 without re-encoding. */
export async function mux(video: string, audio: string, output: string, signal: AbortSignal, timeoutMs = 10 * 60_000): Promise<void> {
  const args = [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    // Inputs are the service's own temp files only.
    '-protocol_whitelist', 'file',
    '-i', video, '-i', audio,
    '-map', '0:v:0', '-map', '1:a:0', '-c', 'copy', '-movflags', '+faststart', '-f', 'mp4', output,
  ];
  const res = await run('ffmpeg', args, timeoutMs, signal);
  if (res.code !== 0) throw new Error(`ffmpeg could not mux the audio into the video: ${res.stderr.trim().slice(0, 300) || `exit ${res.code}`}`);
}

export interface FileProbe {
  format: string;
  w?: number;
  h?: number;
  duration_s?: number;
  video: boolean;
  audio: boolean;
}

/** What ffprobe says a stored file is; undefined when it is not media ffprobe knows. */
export function probeFile(file: string): Promise<FileProbe | undefined> {
  return new Promise((resolve) => {
    const child = spawn('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,width,height:format=format_name,duration', '-of', 'json', file], { stdio: ['ignore', 'pipe', 'ignore'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.on('error', () => resolve(undefined));
    child.on('close', (code) => {
      if (code !== 0) return resolve(undefined);
      try {
        const j = JSON.parse(text) as { streams?: Array<{ codec_type?: string; width?: number; height?: number }>; format?: { format_name?: string; duration?: string } };
        const v = j.streams?.find((s) => s.codec_type === 'video');
        const d = Number(j.format?.duration);
        resolve({
          format: j.format?.format_name ?? '',
          w: v?.width,
          h: v?.height,
          duration_s: Number.isFinite(d) && d > 0 ? Math.round(d * 1000) / 1000 : undefined,
          video: Boolean(v),
          audio: Boolean(j.streams?.some((s) => s.codec_type === 'audio')),
        });
      } catch {
        resolve(undefined);
      }
    });
  });
}

/** The media type of a probed file; the origin's own label when it is a specific one. */
export function mimeOf(kind: 'video' | 'image', originType: string | undefined, p: FileProbe | undefined): string {
  const t = (originType ?? '').split(';')[0].trim().toLowerCase();
  if (kind === 'image' && /^image\/[a-z0-9.+-]+$/.test(t)) return t;
  const f = p?.format ?? '';
  if (f.includes('mp4') || f.includes('mov')) return 'video/mp4';
  if (f.includes('webm') || f.includes('matroska')) return 'video/webm';
  if (f === 'flv') return 'video/x-flv';
  if (f.startsWith('png')) return 'image/png';
  if (f.startsWith('webp')) return 'image/webp';
  if (f.startsWith('gif')) return 'image/gif';
  if (f.includes('jpeg') || f === 'image2' || f.startsWith('mjpeg')) return 'image/jpeg';
  if (kind === 'video' && /^video\/[a-z0-9.+-]+$/.test(t)) return t;
  return kind === 'image' ? 'image/jpeg' : 'video/mp4';
}
