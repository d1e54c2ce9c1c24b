import { describe, expect, it } from 'vitest';
import { EMPTY_SHA256, signS3 } from '../../src/blobs/sigv4.js';

// The example key pair and requests of AWS's Signature Version 4 documentation for S3.
const CREDS = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' };
const NOW = new Date('2013-05-24T00:00:00Z');
const signature = (h: Record<string, string>) => /Signature=([0-9a-f]{64})$/.exec(h.authorization!)?.[1];

describe('SigV4 signing for S3', () => {
  it('signs the documented GET Object with a Range header', () => {
    const h = signS3({ method: 'GET', url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'), headers: { range: 'bytes=0-9' }, payloadHash: EMPTY_SHA256, region: 'us-east-1', now: NOW }, CREDS);
    expect(h.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(h['x-amz-date']).toBe('20130524T000000Z');
    expect(h['x-amz-content-sha256']).toBe(EMPTY_SHA256);
    expect(h.range).toBe('bytes=0-9');
  });

  it('signs query strings in canonical order (the documented lifecycle and list requests)', () => {
    const at = (url: string) => signature(signS3({ method: 'GET', url: new URL(url), headers: {}, payloadHash: EMPTY_SHA256, region: 'us-east-1', now: NOW }, CREDS));
    expect(at('https://examplebucket.s3.amazonaws.com/?lifecycle')).toBe('fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543');
    expect(at('https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2')).toBe('34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7');
  });

  it('signs a session token when there is one, and a different secret gives a different signature', () => {
    const base = { method: 'PUT', url: new URL('http://127.0.0.1:9000/b/k'), headers: {}, payloadHash: EMPTY_SHA256, region: 'garage', now: NOW };
    const withToken = signS3(base, { ...CREDS, sessionToken: 'tok' });
    expect(withToken['x-amz-security-token']).toBe('tok');
    expect(withToken.authorization).toContain('SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,');
    expect(signature(signS3(base, CREDS))).not.toBe(signature(signS3(base, { ...CREDS, secretAccessKey: 'other' })));
  });
});
