import { useNotify } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { type FormMode, formFieldNames, savedMessage } from './formModel';
import type { ResourceDef } from '../../resources/define';
import { errorMessage, fieldErrorsOf } from './serverErrors';
import { useNotifyPlanLimit } from './PlanLimitAlert';

export interface SaveOutcomeOptions {
  resource: ResourceDef;
  mode: FormMode;
  /** How messages name the record: "The cron job". */
  noun: string;
  redirectTo?: (record: Record<string, unknown>) => string;
  /**
   * Where to go when the server refused a record it keeps (422: the row stays `failed` in the
   * list with the reason), instead of leaving the user on a form that already saved.
   */
  failedTo?: string;
}

/**
 * The mutation callbacks of the generic create and edit pages: say what happened (an offline
 * server applies the change when it reconnects), go where the page says; on failure leave the
 * field errors to the form and say what no input shows.
 */
export function useSaveOutcome({ resource, mode, noun, redirectTo, failedTo }: SaveOutcomeOptions) {
  const notify = useNotify();
  const navigate = useNavigate();
  const planLimit = useNotifyPlanLimit();
  return {
    onSuccess(data: unknown) {
      const record = (data ?? {}) as Record<string, unknown>;
      const message = savedMessage(record, noun, mode === 'create' ? 'created' : 'saved');
      notify(message.text, { type: message.type });
      if (redirectTo) navigate(redirectTo(record));
    },
    onError(error: unknown) {
      // The plan allows no more: its words with the Upgrade link (spec s.6's /pricing).
      if (planLimit(error)) return;
      const visible = formFieldNames(resource, mode);
      const hidden = Object.entries(fieldErrorsOf(error)).filter(([f]) => !visible.includes(f));
      const hasVisible = Object.keys(fieldErrorsOf(error)).some((f) => visible.includes(f));
      if (hidden.length) notify(hidden.map(([, m]) => m).join(' '), { type: 'error' });
      else if (!hasVisible) notify(errorMessage(error), { type: 'error' });
      const status = (error as { status?: number } | null)?.status;
      if (status === 422 && failedTo) navigate(failedTo);
    },
  };
}
