import type { Logger } from 'pino';
import type { EventLog } from './event-log.js';
import type { EventBus, TaskEvent, TaskEventType } from './events.js';

/**
 * Publishes task events: stored in the event log (for streams resuming elsewhere or later), then
 * numbered and fanned out to this process's listeners at once. The log write is issued first, so a
 * stream that reads the log after hearing nothing live has not missed the event.
 */
export class EventPublisher {
  constructor(
    readonly bus: EventBus,
    readonly log: EventLog,
    private readonly logger: Logger,
    /** Carries each event to the other processes' buses (a fleet); absent when embedded. */
    private readonly relay?: { forward(taskId: string, event: TaskEvent): void },
  ) {}

  /** The id the next event of this task will get. */
  nextId(taskId: string, storedSeq: number): number {
    return this.bus.nextId(taskId, storedSeq);
  }

  publish(taskId: string, attempt: number, storedSeq: number, type: TaskEventType, data: string): TaskEvent {
    const id = this.bus.nextId(taskId, storedSeq);
    // The result is the task row itself; with it the history is no longer needed.
    const write = type === 'result' ? this.log.forget(taskId) : this.log.append(taskId, attempt, { id, type, data });
    write.catch((e) => this.logger.warn({ err: e, task: taskId }, 'task event not stored; a resuming stream restates the state instead'));
    const event = this.bus.emit(taskId, storedSeq, type, data);
    this.relay?.forward(taskId, event);
    return event;
  }
}
