import { useCallback } from 'react';
import { Alert, Button } from '@mui/material';
import { useNotify } from 'ra-core';
import { Link as RouterLink } from 'react-router-dom';
import { PLAN_LIMIT_CODE, PLAN_UPGRADE_PATH } from '../../features/plans/api';

/** A refusal because the account's plan allows no more (a 403 whose body says `plan_limit`). */
export interface PlanLimit {
  /** The words: "Your Free plan allows 1 server. Upgrade to Basic or Pro to add more." */
  message: string;
  /** Where Upgrade leads (/pricing); null when no plan offered allows more. */
  upgrade: string | null;
}

interface ErrorWithBody {
  status?: unknown;
  body?: { code?: unknown; message?: unknown; upgrade?: unknown; upgrade_to?: unknown } | null;
}

/** The plan limit a failed call ran into, or null for any other failure. */
export function planLimitOf(error: unknown): PlanLimit | null {
  const body = (error as ErrorWithBody | null)?.body;
  if (!body || body.code !== PLAN_LIMIT_CODE || typeof body.message !== 'string') return null;
  const offers = Array.isArray(body.upgrade_to) ? body.upgrade_to.length : 1;
  const upgrade = typeof body.upgrade === 'string' ? body.upgrade : PLAN_UPGRADE_PATH;
  return { message: body.message, upgrade: offers > 0 ? upgrade : null };
}

/**
 * The refusal's words with an Upgrade link to the pricing page: shown by the forms where things
 * are made (servers, web apps, installs, clones, team invitations), in the notice bar or inline.
 */
export function PlanLimitAlert({ limit, onClose }: { limit: PlanLimit; onClose?: () => void }) {
  return (
    <Alert
      severity="warning"
      variant="filled"
      role="alert"
      onClose={onClose}
      action={
        limit.upgrade ? (
          <Button
            component={RouterLink}
            to={limit.upgrade}
            color="inherit"
            size="small"
            variant="outlined"
            onClick={onClose}
          >
            Upgrade
          </Button>
        ) : undefined
      }
    >
      {limit.message}
    </Alert>
  );
}

/** Long enough to read the words and reach the link. */
export const PLAN_LIMIT_NOTICE_MS = 15_000;

/**
 * Says a plan limit in the notice bar, with its Upgrade link: true when the error was one (the
 * caller then says nothing else), false for any other failure.
 */
export function useNotifyPlanLimit(): (error: unknown) => boolean {
  const notify = useNotify();
  return useCallback(
    (error: unknown) => {
      const limit = planLimitOf(error);
      if (!limit) return false;
      notify(<PlanLimitAlert limit={limit} />, {
        type: 'warning',
        autoHideDuration: PLAN_LIMIT_NOTICE_MS,
      });
      return true;
    },
    [notify],
  );
}
