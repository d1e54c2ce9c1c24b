// npm run bench: the API hot paths, then the media proxy.
await import('./run.js');
await import('./media.js');
