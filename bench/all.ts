// npm run bench: the API hot paths, the media proxy, then preview renders.
await import('./run.js');
await import('./media.js');
await import('./preview.js');
