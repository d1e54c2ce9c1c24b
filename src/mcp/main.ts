import { Command } from 'commander';
import { addMcpCommand } from './cli.js';

// `crawler mcp` without loading the service: bin/crawler.js comes here for that one command.
const program = new Command().name('crawler').showHelpAfterError();
addMcpCommand(program);
program.parseAsync(process.argv).catch((e: Error) => {
  process.stderr.write(`crawler mcp: ${e.message}\n`);
  process.exit(1);
});
