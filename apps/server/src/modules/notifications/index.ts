/** What other modules may use of notifications: writing them, and the verification notifier. */
export { notificationRows, verificationNotifier, writeNotifications, type NotificationToWrite } from './notify.ts';
