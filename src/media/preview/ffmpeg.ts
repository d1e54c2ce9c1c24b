import { spawn, spawnSync } from 'node:child_process';

export const PREVIEW_MAX_SECONDS = 240;
export const PREVIEW_HEIGHT = 240;

export function ffmpegAvailable(): boolean {
  try {
    return spawnSync('ffmpeg', ['-version'], { stdio: 'ignore', timeout: 5000 }).status === 0 && spawnSync('ffprobe', ['-version'], { stdio: 'ignore', timeout: 5000 }).status === 0;
  } catch {
    return false;
  }
}

/** The clip's frame for a source frame: the same rule as the scale filter below (≤240 px high, even sides). */
export function previewSize(srcW: number, srcH: number): { w: number; h: number } {
  const h = srcH > PREVIEW_HEIGHT ? PREVIEW_HEIGHT : srcH - (srcH % 2);
  // scale=-2 keeps the aspect and rounds the width to the nearest even number.
  return { w: 2 * Math.round((h * srcW) / srcH / 2), h };
}

/** The clip's length for a source length (the clip is the whole video, cut at 240 s). */
export function previewSeconds(sourceSeconds: number): number {
  return Math.min(PREVIEW_MAX_SECONDS, Math.round(sourceSeconds * 100) / 100);
}

/** ffmpeg arguments for the scrub clip: muted, ≤240 px high with an even width, a keyframe every second, H.264, faststart. */
export function clipArgs(input: string, output: string, headers: string): string[] {
  return [
    '-nostdin', '-hide_banner', '-loglevel', 'error', '-y',
    // The input is only ever the service's own media proxy.
    '-protocol_whitelist', 'http,tcp',
    '-rw_timeout', '30000000',
    '-headers', headers,
    '-i', input,
    '-t', String(PREVIEW_MAX_SECONDS),
    '-map', '0:v:0', '-an', '-sn', '-dn',
    '-vf', `scale=-2:'if(gt(ih,${PREVIEW_HEIGHT}),${PREVIEW_HEIGHT},ih-mod(ih,2))',format=yuv420p`,
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '32', '-profile:v', 'main',
    '-force_key_frames', 'expr:gte(t,n_forced*1)', '-sc_threshold', '0',
    '-movflags', '+faststart',
    '-f', 'mp4', output,
  ];
}

export interface ProcessResult {
  code: number | null;
  stderr: string;
}

/** Runs a command, killing it on timeout or abort; never leaves it behind. */
export function run(cmd: string, args: string[], timeoutMs: number, signal?: AbortSignal): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 8192) stderr += c.toString();
    });
    const kill = (why: string) => {
      child.kill('SIGKILL');
      reject(new Error(why));
    };
    const timer = setTimeout(() => kill(`${cmd} timed out after ${timeoutMs} ms`), timeoutMs);
    const onAbort = () => kill(`${cmd} cancelled`);
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve({ code, stderr });
    });
  });
}

export interface ProbeResult {
  width: number;
  height: number;
  seconds: number;
  hasAudio: boolean;
}

export async function probe(file: string): Promise<ProbeResult> {
  const out = await new Promise<string>((resolve, reject) => {
    const child = spawn('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,width,height:format=duration', '-of', 'json', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c: Buffer) => (text += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`ffprobe exited ${code}`))));
  });
  const j = JSON.parse(out) as { streams?: Array<{ codec_type: string; width?: number; height?: number }>; format?: { duration?: string } };
  const v = j.streams?.find((s) => s.codec_type === 'video');
  return {
    width: v?.width ?? 0,
    height: v?.height ?? 0,
    seconds: Number(j.format?.duration ?? 0),
    hasAudio: Boolean(j.streams?.some((s) => s.codec_type === 'audio')),
  };
}
