import { useCallback } from 'react';
import { useNotify } from 'ra-core';
import type { FieldValues } from 'react-hook-form';
import { submitFailure } from './serverErrors';
import { useNotifyPlanLimit } from './PlanLimitAlert';

/**
 * An onSubmit for ra-core's `<Form>`: runs the call, confirms success, and on failure returns
 * the server's field messages (the form puts each on its input and keeps what was typed) and
 * notifies whatever no visible input can carry.
 */
export function useSubmitHandler<T>(
  visibleFields: readonly string[],
  action: (values: T) => Promise<unknown>,
  success: string | null,
) {
  const notify = useNotify();
  const planLimit = useNotifyPlanLimit();
  return useCallback(
    async (values: FieldValues): Promise<Record<string, string> | undefined> => {
      try {
        // The form's resolver parsed the values with the schema that `T` is inferred from.
        await action(values as T);
        if (success) notify(success, { type: 'success' });
        return undefined;
      } catch (error) {
        // The plan allows no more: its words with the Upgrade link, nothing at the inputs.
        if (planLimit(error)) return undefined;
        const { fields, general } = submitFailure(error, visibleFields);
        if (general) notify(general, { type: 'error' });
        return Object.keys(fields).length ? fields : undefined;
      }
    },
    [action, notify, planLimit, success, visibleFields],
  );
}
