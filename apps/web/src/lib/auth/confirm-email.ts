import { apiSend } from '@/lib/api-client.ts';

/** Sends the signed-in account a new confirmation link (the server allows a few an hour). */
export function resendConfirmation(): Promise<{ status: boolean }> {
  return apiSend<{ status: boolean }>('POST', '/auth/send-verification-email', {});
}
