import { createHmac } from 'node:crypto';
import { deriveKey } from '../auth/keys.js';
import { loadSecretKey } from '../accounts/secrets.js';
import type { Config } from '../config.js';

export const SIGNATURE_HEADER = 'x-crawler-signature';
export const DELIVERY_HEADER = 'x-crawler-delivery';
export const EVENT_HEADER = 'x-crawler-event';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` */
export function signatureHeader(secret: string, unixSeconds: number, rawBody: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${rawBody}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/**
 * The webhook signing secret: CRAWLER_WEBHOOK_SECRET, else derived from the server secret
 * (CRAWLER_SECRET_KEY or data/secret.key). A fleet already shares that key (its processes read each
 * other's sealed profiles), so every process signs with the same secret without storing another.
 */
export function webhookSecret(config: Pick<Config, 'dataDir' | 'secretKey' | 'webhookSecret'>): string {
  if (config.webhookSecret) return config.webhookSecret;
  return `whsec_${deriveKey(loadSecretKey(config.dataDir, config.secretKey), 'webhook-signing').toString('hex')}`;
}
