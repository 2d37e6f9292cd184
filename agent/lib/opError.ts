import type { OpErrorBody, OpErrorCode } from '../../resources/agent/protocol';

/**
 * A failure an op reports on purpose: a code the panel maps to an HTTP answer, a message for
 * the user, and the argument it concerns when there is one (shown at that field of the form).
 * Any other error an op throws reaches the panel as `failed` with its message.
 */
export class OpError extends Error {
  constructor(
    readonly code: OpErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'OpError';
  }

  toJSON(): OpErrorBody {
    return { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) };
  }
}

/** The argument `field` is wrong: the panel answers 400 with the message at that field. */
export const opFieldError = (field: string, message: string) =>
  new OpError('invalid', message, field);

/** Whatever was thrown, as the structured error the panel receives. */
export function opErrorOf(error: unknown): OpErrorBody {
  if (error instanceof OpError) return error.toJSON();
  return { code: 'failed', message: error instanceof Error ? error.message : String(error) };
}
