// Child process of bench/media.ts: the loopback CDN on its own core, like a real origin.
import { startFakeCdn } from '../test/helpers/fake-cdn.js';

const cdn = await startFakeCdn();
process.send?.({ port: cdn.port, base: cdn.base });
process.on('message', () => void cdn.close().then(() => process.exit(0)));
