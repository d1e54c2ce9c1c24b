export { BrowserPool, CHROMIUM_ARGS, chromeUserAgent, defaultChromiumPath } from './pool.js';
export type { Availability, BrowserPoolOptions, PoolStats, ProfileSession } from './pool.js';
export { PageSigner } from './signer.js';
export type { PageSignerOptions, SignRequest } from './signer.js';
export { LOGIN_KEYS, LoginManager, saveLoginScreenshot } from './login.js';
export type { LoginInput, LoginManagerOptions, LoginRequest, LoginState, LoginStatus, SuccessWhen } from './login.js';
export { BrowserPoolClosed, BrowserUnavailable } from './errors.js';
export type { CookieScope } from './cookies.js';
