import type { Command } from 'commander';
import { runCommand } from './run.js';
import { tasksCommand } from './tasks.js';
import { downloadCommand } from './download.js';
import { bulkCommands } from './bulk.js';

/** The caller's commands (`run`, `tasks …`, `download`, `batch`, `export`): they talk to a running service over HTTP through the client in client/. */
export function addCallerCommands(program: Command): void {
  runCommand(program);
  tasksCommand(program);
  downloadCommand(program);
  bulkCommands(program);
}
