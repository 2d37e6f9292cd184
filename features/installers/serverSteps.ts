import type { FastifyInstance } from 'fastify';
import { AgentOpError } from '../../server/agents/hub';
import { HttpError } from '../../server/http/errors';

/**
 * One step of an install: its event (what the messages panel shows while it runs), its code
 * (progress is ten times the code, in per cent), the work, and how to take it back.
 */
export interface Step {
  event: string;
  code: number;
  run(): Promise<void>;
  /**
   * Takes back what `run` made, and nothing else: registered before `run` starts, so a step
   * that failed half-way is undone too. It must do nothing when there is nothing to undo.
   */
  undo?(): Promise<void>;
}

/** What a person reads of an error: the panel's and the server's own words, never a stack. */
export function wordsOf(error: unknown): string {
  if (error instanceof HttpError) {
    const fields = Object.entries(error.errors ?? {})
      .filter(([, message]) => message !== error.message)
      .map(([field, message]) => `${field}: ${message}`);
    return [error.message, ...fields].join('; ');
  }
  if (error instanceof AgentOpError) return error.message;
  return error instanceof Error ? error.message : 'The step failed';
}

/**
 * Runs the steps of a task in order, each announced as an event before it runs. A failure is
 * an event naming the step and the server's words; then every step that started is undone in
 * reverse order (each undo announced), so nothing is left half-made, and the task fails. The
 * last event of a completed task is `done` at code 10.
 */
export async function runSteps(
  app: FastifyInstance,
  taskId: number,
  steps: readonly Step[],
  done: string,
): Promise<boolean> {
  const { tasks } = app.services;
  const started: Step[] = [];
  // A task another panel settled meanwhile (serverRecover.ts: it judged this runner stopped)
  // is its to finish: this runner stops without a word to the task, and says so in the log.
  const claimed = async () => {
    if ((await tasks.find(taskId))?.status === 'running') return false;
    app.log.info({ taskId }, 'another panel settled this task: its runner stops');
    return true;
  };
  for (const step of steps) {
    if (await claimed()) return false;
    await tasks.addEvent(taskId, step.event, step.code);
    started.push(step);
    try {
      await step.run();
    } catch (error) {
      if (await claimed()) return false;
      if (!(error instanceof HttpError || error instanceof AgentOpError))
        app.log.error({ err: error, taskId }, 'an install step failed');
      await tasks.addEvent(taskId, `${step.event} failed: ${wordsOf(error)}`, step.code);
      await undoAll(app, taskId, started, step.code);
      await tasks.finish(taskId, 'failed');
      return false;
    }
  }
  if (await claimed()) return false;
  await tasks.addEvent(taskId, done, 10);
  await tasks.finish(taskId, 'completed');
  return true;
}

async function undoAll(app: FastifyInstance, taskId: number, started: Step[], code: number) {
  const { tasks } = app.services;
  for (const step of [...started].reverse()) {
    if (!step.undo) continue;
    try {
      await step.undo();
    } catch (error) {
      await tasks.addEvent(taskId, `Could not undo "${step.event}": ${wordsOf(error)}`, code);
    }
  }
  await tasks.addEvent(taskId, 'Everything the install made is removed again', code);
}
