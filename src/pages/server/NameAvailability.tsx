import { FormHelperText } from '@mui/material';
import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { systemUserName } from '../../../resources/agent/validators';
import { useStackdeckData } from '../../hooks';
import { generatePassword } from './passwords';

type Check =
  | { state: 'idle' }
  | { state: 'checking'; name: string }
  | { state: 'done'; name: string; available: boolean; reason: string | null };

const DEBOUNCE_MS = 400;

/**
 * Asks the server, as the user types (debounced), whether the name can be used: the
 * `?dry=true` check. Only names the shared rule accepts are asked about.
 */
export function NameAvailability({ sid, disabled }: { sid: number; disabled: boolean }) {
  const dp = useStackdeckData();
  const name = ((useWatch({ name: 'user_name' }) as string | undefined) ?? '').trim();
  const password = (useWatch({ name: 'password' }) as string | undefined) ?? '';
  const [check, setCheck] = useState<Check>({ state: 'idle' });

  useEffect(() => {
    if (disabled || !name || !systemUserName.safeParse(name).success) {
      setCheck({ state: 'idle' });
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setCheck({ state: 'checking', name });
      // The check takes the create body; a throw-away password stands in until one is typed.
      const body = {
        user_name: name,
        password:
          password.length >= 12 && !/[:\n\r]/.test(password) ? password : generatePassword(),
        quota_hard: 0,
        quota_soft: 0,
      };
      dp.create('sysusers', { meta: { sid, query: { dry: 'true' } }, data: body })
        .then(({ data }) => {
          if (controller.signal.aborted) return;
          const answer = data as unknown as { available: boolean; reason: string | null };
          setCheck({ state: 'done', name, available: answer.available, reason: answer.reason });
        })
        .catch(() => !controller.signal.aborted && setCheck({ state: 'idle' }));
    }, DEBOUNCE_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
    // The password only fills the body: a new password does not need a new check.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [name, sid, disabled, dp]);

  if (check.state === 'idle') return null;
  if (check.state === 'checking')
    return (
      <FormHelperText role="status" sx={{ mt: -1, mb: 1 }}>
        Checking {check.name}…
      </FormHelperText>
    );
  return (
    <FormHelperText
      role="status"
      data-testid="name-availability"
      sx={{ mt: -1, mb: 1, color: check.available ? 'success.main' : 'error.main' }}
    >
      {check.available
        ? `${check.name} is available`
        : `${check.name} cannot be used: ${check.reason ?? 'taken'}`}
    </FormHelperText>
  );
}
