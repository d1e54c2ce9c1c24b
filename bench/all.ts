// npm run bench: start time and idle memory, the API hot paths, the media proxy, then preview renders, then MCP.
await import('./startup.js');
await import('./run.js');
await import('./media.js');
await import('./preview.js');
await import('./soak.js');
await import('./signers.js');
await import('./mcp.js');
