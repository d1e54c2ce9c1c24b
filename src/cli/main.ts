import { Command } from 'commander';
import { addCallerCommands } from './index.js';

// `crawler run …` and `crawler tasks …` start here (bin/crawler.js): they only talk HTTP, so none of the
// service's modules are loaded and the command starts in a fraction of the time. src/main.ts lists them too.
const program = new Command().name('crawler').showHelpAfterError();
addCallerCommands(program);
await program.parseAsync(process.argv);
