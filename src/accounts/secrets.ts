import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const PREFIX = 'enc1:';

/** AES-256-GCM for profile secrets at rest: each value gets its own IV and an auth tag. */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('secret key must be 32 bytes');
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  open(sealed: string): string {
    // Rows written before encryption was configured stay readable.
    if (!sealed.startsWith(PREFIX)) return sealed;
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    try {
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error('a stored secret cannot be decrypted: CRAWLER_SECRET_KEY (or data/secret.key) changed since it was written');
    }
  }
}

/**
 * The key: CRAWLER_SECRET_KEY (64 hex characters or base64 of 32 bytes), else a key generated once
 * into the data dir with mode 0600.
 */
export function loadSecretKey(dataDir: string, fromEnv?: string): Buffer {
  if (fromEnv) {
    const k = /^[0-9a-f]{64}$/i.test(fromEnv) ? Buffer.from(fromEnv, 'hex') : Buffer.from(fromEnv, 'base64');
    if (k.length !== 32) throw new Error('CRAWLER_SECRET_KEY: expected 32 bytes as 64 hex characters or base64');
    return k;
  }
  const file = join(dataDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  }
  chmodSync(file, 0o600);
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
}
