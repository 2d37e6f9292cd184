import { useTranslate } from 'ra-core';
import { ErrorPage } from './ErrorPage';

/** /404: unknown paths and admin routes for non-admins end here. */
export default function NotFoundPage() {
  const translate = useTranslate();
  return (
    <ErrorPage
      code="404"
      title={translate('shell.error.notFoundTitle')}
      text={translate('shell.error.notFoundText')}
    />
  );
}
