import type { FastifyBaseLogger } from 'fastify';
import type { Namespace } from 'socket.io';
import { EVENTS } from '../../resources/agent/protocol';
import type { TasksTable } from '../db/schema';

/**
 * Live task progress (issue 11): each event and end of a task is pushed at once to its owner's
 * browsers (the messages panel, an install's page), which refetch `clone-events` instead of
 * polling it every second. The room is the owner's: every browser socket signed in as that user
 * (an admin acting as them included) joins it; nobody else ever does.
 */

/** The browser sockets of one user (joined in LiveStore.followSessions). */
export const userRoom = (userId: number) => `user:${userId}`;

/** A task's change, as TaskRepository reports it after writing it. */
export interface TaskChange {
  id: number;
  userId: number;
  kind: string;
  status: TasksTable['status'];
  /** The step just added; null when the change is the task's end. */
  event: string | null;
  code: number | null;
}
export type TaskListener = (change: TaskChange) => void;

/** What a browser receives (`EVENTS.task`): no user id, the room already says whose it is. */
export type TaskPush = Omit<TaskChange, 'userId'>;

export function taskPush({ userId: _userId, ...push }: TaskChange): TaskPush {
  return push;
}

/**
 * Emits every task change to its owner's room. Through the socket.io adapter this reaches the
 * owner's sockets on every panel, whichever panel wrote the change. Returns the stop.
 */
export function pushTasks(
  /** TaskRepository (typed by its shape: the repository imports this file's types). */
  tasks: { onChange(listener: TaskListener): () => void },
  browsers: Namespace,
  log: FastifyBaseLogger,
): () => void {
  return tasks.onChange((change) => {
    try {
      browsers.to(userRoom(change.userId)).emit(EVENTS.task, taskPush(change));
    } catch (err) {
      log.error({ err, taskId: change.id }, 'pushing a task change failed');
    }
  });
}
