/** What other modules may use of notifications: writing them, and the verification notifier with its notice types. */
export { notificationRows, verificationNotifier, writeNotifications, type Notice, type NotificationToWrite, type Notify } from './notify.ts';
