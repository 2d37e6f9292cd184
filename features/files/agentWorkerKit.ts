import type * as NodeFs from 'node:fs';
import type * as NodePath from 'node:path';

/**
 * Types shared by the file worker's parts (agentWorker.ts and its action groups). Types only:
 * each part is sent as its own text, so nothing here may be needed at run time.
 */
export type WorkerRequest = Record<string, unknown> & { action: string; root: string };
export type Refusal = Error & { code: string; field?: string; refused: true };

/** One entry as the worker answers it (list, write, mkdir). */
export interface WorkerEntry {
  path: string;
  dir_path: string;
  name: string;
  type: string;
  size: number;
  mode: string;
  mtime: number;
  target: string | null;
  etag: string | undefined;
}

/** The confined helpers the worker's core builds for one request and hands to each group. */
export interface WorkerKit {
  fs: typeof NodeFs;
  path: typeof NodePath;
  /** The app's folder, its real path. */
  root: string;
  Refused: new (code: string, message: string, field?: string) => Refusal;
  str: (v: unknown) => string;
  /** The app-relative path's folder, resolved as this user and confined; the entry's name. */
  place: (rel: string) => { dir: string; name: string; full: string };
  /** A folder the user names: its real path must stay inside (a link to /etc is refused). */
  folder: (rel: string) => string;
  relOf: (full: string) => string;
  entry: (full: string) => WorkerEntry;
  /** A clash answers 409 (never at a field: the platform makes field errors 400s). */
  mustNotExist: (full: string) => void;
  isLink: (full: string) => boolean;
}

/** A group of actions: given the kit, the handler of each action it owns, by name. */
export type WorkerActions = (kit: WorkerKit) => Record<string, (req: WorkerRequest) => unknown>;
