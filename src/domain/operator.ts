import { z } from 'zod';

export const PROFILE_HEALTH = ['ok', 'cooling', 'session_expired', 'unknown'] as const;
export const TOKEN_SCOPES = ['read', 'write', 'admin'] as const;
export const LOGIN_STATES = ['waiting', 'done', 'failed', 'expired'] as const;

/** A stored login; `session_expired` is the re-login signal. Cookie and credential values never leave the service. */
export const ProfileSchema = z.object({
  platform: z.string(),
  name: z.string(),
  health: z.enum(PROFILE_HEALTH),
  checked_at: z.string().nullable(),
  used_at: z.string().nullable(),
  /** Names only, on the answer to a store. */
  cookies: z.array(z.string()).optional(),
  credentials: z.array(z.string()).optional(),
  /** Where the profile's traffic leaves: `direct`, or its proxy's id (`px-` and a hash of its address). */
  egress: z.string().optional(),
  /** The profile's proxy, credentials masked (`socks5://***@host:port`); absent when direct. */
  proxy: z.string().optional(),
  /** The named pool it serves in (`params.profile: "pool:<name>"`); every profile serves in `pool`. */
  pool: z.string().nullable().optional(),
  /** Crawl outcomes of the last hour, fleet-wide: finished tasks, and the share that succeeded or were blocked (null without tasks). */
  tasks_1h: z.number().int().nonnegative().optional(),
  success_rate_1h: z.number().min(0).max(1).nullable().optional(),
  block_rate_1h: z.number().min(0).max(1).nullable().optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const ProfileListSchema = z.object({ profiles: z.array(ProfileSchema) });

export const ProfileCheckSchema = z.object({
  platform: z.string(),
  name: z.string(),
  health: z.enum(PROFILE_HEALTH),
  checked_at: z.string().nullable(),
  note: z.string().optional(),
});

export const ProfileDeletedSchema = z.object({ ok: z.literal(true), platform: z.string(), name: z.string(), deleted: z.literal(true) });

export const TokenInfoSchema = z.object({
  id: z.string(),
  name: z.string().nullable(),
  scopes: z.array(z.enum(TOKEN_SCOPES)),
  created_at: z.string(),
  revoked_at: z.string().optional(),
});
export type TokenInfo = z.infer<typeof TokenInfoSchema>;

export const TokenListSchema = z.object({ tokens: z.array(TokenInfoSchema) });
/** The new token's secret is shown once, in this answer only. */
export const TokenCreatedSchema = TokenInfoSchema.extend({ token: z.string() });
export const TokenRevokedSchema = z.object({ ok: z.literal(true), id: z.string(), revoked: z.literal(true) });

/** A human re-login in progress (admin): watch the screenshot, act with input. */
export const LoginSchema = z.object({
  id: z.string(),
  platform: z.string(),
  name: z.string(),
  state: z.enum(LOGIN_STATES),
  started_at: z.string(),
  ends_at: z.string(),
  finished_at: z.string().optional(),
  url: z.string().optional(),
  error: z.string().optional(),
  screenshot_url: z.string(),
  input_url: z.string(),
});
export type Login = z.infer<typeof LoginSchema>;

export const LoginCancelledSchema = z.object({ ok: z.literal(true), id: z.string(), state: z.literal('failed') });
