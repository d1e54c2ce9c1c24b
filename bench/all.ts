// npm run bench: start time and idle memory, the API hot paths (embedded and distributed), fleet crawl
// throughput, the media proxy, preview renders, a soak, the signers, MCP, then exports and batches.
await import('./startup.js');
await import('./run.js');
await import('./fleet.js');
await import('./media.js');
await import('./preview.js');
await import('./soak.js');
await import('./signers.js');
await import('./mcp.js');
await import('./watches.js');
await import('./export.js');
