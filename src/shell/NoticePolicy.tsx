import IconButton from '@mui/material/IconButton';
import {
  AddNotificationContext,
  type NotificationPayload,
  useAddNotificationContext,
  useCloseNotification,
  useNotify,
  useTranslate,
} from 'ra-core';
import { type ReactNode, useCallback, useEffect } from 'react';
import { SESSION_EXPIRED } from '../../dataProvider/authProvider';
import { CloseGlyph } from './inlineIcons';
import { SESSION_EXPIRED_MS, type SessionNotices, noticePolicy } from './notices';

function CloseNoticeButton() {
  const close = useCloseNotification();
  const translate = useTranslate();
  return (
    <IconButton
      size="small"
      color="inherit"
      onClick={close}
      aria-label={translate('shell.notice.close')}
    >
      <CloseGlyph fontSize="small" />
    </IconButton>
  );
}

/**
 * Applies the shell's notice rules (notices.ts) to every notify() below it: success notices
 * clear after 3000 ms, errors get a close button.
 */
export function NoticePolicy({ children }: { children: ReactNode }) {
  const add = useAddNotificationContext();
  const addWithPolicy = useCallback(
    (notification: NotificationPayload) => {
      const { options, closable } = noticePolicy(
        notification.type,
        notification.notificationOptions,
      );
      add({
        ...notification,
        notificationOptions: closable ? { ...options, action: <CloseNoticeButton /> } : options,
      });
    },
    [add],
  );
  return (
    <AddNotificationContext.Provider value={addWithPolicy}>
      {children}
    </AddNotificationContext.Provider>
  );
}

/** Shows the authProvider's logout messages ('Session expired! ...' for 4000 ms). */
export function SessionNoticeRelay({ notices }: { notices: SessionNotices }) {
  const notify = useNotify();
  useEffect(
    () =>
      notices.subscribe((message) => {
        const key = message === SESSION_EXPIRED ? 'shell.notice.sessionExpired' : message;
        notify(key, {
          type: 'error',
          autoHideDuration: SESSION_EXPIRED_MS,
          messageArgs: { _: message },
        });
      }),
    [notices, notify],
  );
  return null;
}
