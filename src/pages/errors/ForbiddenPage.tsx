import { useTranslate } from 'ra-core';
import { ErrorPage } from './ErrorPage';

/** /403: where a 403 answer sends the user (spec sections 2 and 8). */
export default function ForbiddenPage() {
  const translate = useTranslate();
  return (
    <ErrorPage
      code="403"
      title={translate('shell.error.forbiddenTitle')}
      text={translate('shell.error.forbiddenText')}
    />
  );
}
