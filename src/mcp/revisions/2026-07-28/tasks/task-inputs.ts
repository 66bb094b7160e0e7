import { inputKeyOf, validAnswer } from '../../../core/multi-round-trip/input-round.js';
import type { McpTaskInputRequest } from './task.interface.js';

interface Pending {
  readonly request: McpTaskInputRequest;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/**
 * The questions one running task waits on. A key is used once in the task's life, asked or
 * answered; an answer is taken only for a key that is waiting and only in the shape its
 * method answers with, and the rest of `tasks/update` is ignored (SEP-2663: partial answers
 * are accepted, unknown keys ignored).
 */
export class McpTaskInputs {
  private readonly pending = new Map<string, Pending>();
  private readonly used = new Set<string>();
  private sequence = 0;

  /** Waits for the answer to a new question; rejects when the key was used before. */
  ask(method: string, params: object, key?: string): Promise<unknown> {
    let name = key;
    if (name === undefined) {
      do name = inputKeyOf(method, this.sequence++);
      while (this.used.has(name));
    } else if (this.used.has(name)) {
      return Promise.reject(new TypeError(`The input key '${name}' was used before in this task`));
    }
    this.used.add(name);
    return new Promise((resolve, reject) => {
      this.pending.set(name, { request: { method, params }, resolve, reject });
    });
  }

  /** Takes the answers to waiting keys; returns how many it took. */
  answer(responses: Readonly<Record<string, unknown>>): number {
    let taken = 0;
    for (const [key, response] of Object.entries(responses)) {
      const waiting = this.pending.get(key);
      const answer = waiting && validAnswer(response, waiting.request.method);
      if (!waiting || answer === undefined) continue;
      this.pending.delete(key);
      waiting.resolve(answer);
      taken += 1;
    }
    return taken;
  }

  /** Whether any question waits. */
  get waiting(): boolean {
    return this.pending.size > 0;
  }

  /** Every question still waiting, by key; undefined when none is. */
  requests(): Record<string, McpTaskInputRequest> | undefined {
    if (this.pending.size === 0) return undefined;
    const requests: Record<string, McpTaskInputRequest> = {};
    for (const [key, { request }] of this.pending) requests[key] = request;
    return requests;
  }

  /** Ends every wait: the task was cancelled or its run ended. */
  abandon(reason: Error): void {
    for (const { reject } of this.pending.values()) reject(reason);
    this.pending.clear();
  }
}
