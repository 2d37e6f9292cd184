import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { errorMessage, fieldErrorsOf } from '../../generic/serverErrors';

/**
 * Puts a failed call's `errors: {field: message}` (HTTP 400/409, dataProvider/http.ts) on the
 * form's inputs and returns what no input shows, for the form's alert. `aliases` maps a
 * server field onto an input of another name (the OTP login answers for `otp`).
 */
export function applyServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
  aliases: Partial<Record<string, Path<T>>> = {},
): string | null {
  let shown = 0;
  const leftOver: string[] = [];
  for (const [field, message] of Object.entries(fieldErrorsOf(error))) {
    const input = aliases[field] ?? (fields.includes(field as Path<T>) ? (field as Path<T>) : null);
    if (input) {
      setError(input, { type: 'server', message }, { shouldFocus: shown === 0 });
      shown += 1;
    } else leftOver.push(message);
  }
  if (leftOver.length) return leftOver.join(' ');
  return shown ? null : errorMessage(error);
}
