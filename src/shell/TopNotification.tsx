import { Notification } from 'ra-ui-materialui';

/** react-admin's notice bar, at the top centre; NotificationOnDemand loads it. */
export default function TopNotification() {
  return <Notification anchorOrigin={{ vertical: 'top', horizontal: 'center' }} />;
}
