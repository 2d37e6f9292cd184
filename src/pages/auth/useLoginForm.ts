import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import type { z } from 'zod';
import type { loginBody } from '../../../resources/user-security';
import { submitFailure } from '../../generic/serverErrors';

/** The sign-in body (resources/user-security.ts), fetched with zod on the first check. */
type LoginBody = z.infer<typeof loginBody>;
type LoginField = keyof LoginBody;
const FIELDS: readonly LoginField[] = ['email', 'password'];

const loadLoginBody = () => import('../../../resources/user-security').then((m) => m.loginBody);

function issuesByField(error: z.ZodError): Partial<Record<LoginField, string>> {
  const found: Partial<Record<LoginField, string>> = {};
  for (const issue of error.issues) {
    const field = issue.path[0] as LoginField;
    found[field] ??= issue.message;
  }
  return found;
}

/**
 * The sign-in form's state without react-hook-form (13 KB gzipped of /login's first load):
 * checked by the declared body on submit and, once submitted, on each change, as the other
 * public forms are. `submit` returns the message no input shows, or null.
 */
export function useLoginForm(send: (values: LoginBody) => Promise<void>) {
  const [values, setValues] = useState<LoginBody>({ email: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<LoginField, string>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [busy, setBusy] = useState(false);
  const refs = useRef<Partial<Record<LoginField, HTMLInputElement | null>>>({});

  const check = async (next: LoginBody) => {
    const parsed = (await loadLoginBody()).safeParse(next);
    return parsed.success
      ? { body: parsed.data, errors: {} }
      : { errors: issuesByField(parsed.error) };
  };

  const field = (name: LoginField) => ({
    name,
    value: values[name],
    error: errors[name],
    inputRef: (element: HTMLInputElement | null) => {
      refs.current[name] = element;
    },
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.target.value };
      setValues(next);
      if (submitted) void check(next).then((result) => setErrors(result.errors));
    },
  });

  /** Runs `send` with the checked body; a refused call's field messages go on the inputs. */
  const submit = async (event: FormEvent, onRefused: (error: unknown) => boolean) => {
    event.preventDefault();
    setSubmitted(true);
    setBusy(true);
    try {
      const result = await check(values);
      setErrors(result.errors);
      if (!result.body) {
        refs.current[FIELDS.find((name) => result.errors[name])!]?.focus();
        return null;
      }
      try {
        await send(result.body);
        return null;
      } catch (error) {
        if (onRefused(error)) return null;
        const failure = submitFailure(error, FIELDS);
        setErrors(failure.fields);
        refs.current[FIELDS.find((name) => failure.fields[name]) ?? 'email']?.focus();
        return failure.general;
      }
    } finally {
      setBusy(false);
    }
  };

  return { values, field, submit, busy };
}
