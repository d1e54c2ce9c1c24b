import { createHmac } from 'node:crypto';
import { loadSecretKey } from '../accounts/secrets.js';
import type { Config } from '../config.js';

/** Keys for what the service signs, each derived from the one server secret so none is reused for two jobs. */
export interface ServerKeys {
  cursors: Buffer;
  media: Buffer;
}

export function deriveKey(master: Buffer, purpose: string): Buffer {
  return createHmac('sha256', master).update(`social-crawler/${purpose}`).digest();
}

export function serverKeys(config: Pick<Config, 'dataDir' | 'secretKey'>): ServerKeys {
  const master = loadSecretKey(config.dataDir, config.secretKey);
  return { cursors: deriveKey(master, 'cursor-binding'), media: deriveKey(master, 'media-capability') };
}
