/**
 * The API answers a bad request with `{message, errors: {field: message}}`; ra-core's HttpError
 * keeps that body. These helpers put each message on its input and say what is left over.
 */
export interface SubmitFailure {
  /** Messages for inputs the form shows. */
  fields: Record<string, string>;
  /** What to show as a notification: the message when no visible input carries it. */
  general: string | null;
}

interface ErrorWithBody {
  message?: unknown;
  status?: unknown;
  body?: { errors?: unknown; message?: unknown } | null;
}

export function fieldErrorsOf(error: unknown): Record<string, string> {
  const errors = (error as ErrorWithBody | null)?.body?.errors;
  if (!errors || typeof errors !== 'object') return {};
  return Object.fromEntries(
    Object.entries(errors as Record<string, unknown>).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

export function errorMessage(
  error: unknown,
  fallback = 'Something went wrong. Try again.',
): string {
  const candidate = error as ErrorWithBody | null;
  const message = candidate?.body?.message ?? candidate?.message;
  return typeof message === 'string' && message ? message : fallback;
}

/** Splits a failed call into per-input messages and one general message for the rest. */
export function submitFailure(error: unknown, visibleFields: readonly string[]): SubmitFailure {
  const all = fieldErrorsOf(error);
  const fields: Record<string, string> = {};
  const hidden: string[] = [];
  for (const [field, message] of Object.entries(all)) {
    if (visibleFields.includes(field)) fields[field] = message;
    else hidden.push(message);
  }
  const general = hidden.length
    ? hidden.join(' ')
    : Object.keys(fields).length
      ? null
      : errorMessage(error);
  return { fields, general };
}
