import http from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from '../../scripts/throwaway-postgres.ts';

export interface LocalOidcProvider {
  issuer: string;
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * A real OpenID provider on 127.0.0.1 standing in for Google: the full authorization-code + PKCE flow,
 * with oidc-provider's development login form (any login name signs in as that user).
 */
export async function startOidcProvider(appBaseUrls: string[]): Promise<LocalOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'bulkcart-e2e';
  const clientSecret = 'bulkcart-e2e-secret-0123456789abcdef';
  // better-auth 1.7's genericOAuth serves its providers through the core social routes, so the
  // callback is /callback/:providerId (not the older /oauth2/callback/:providerId). Only the one
  // real path is registered, so a change of path in better-auth fails the Google e2e tests loudly.
  const redirectUris = appBaseUrls.map((base) => `${base}/api/auth/callback/google`);
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'client_secret_post',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
    async findAccount(_ctx, sub) {
      return {
        accountId: sub,
        async claims() {
          return { sub, email: `${sub}@gmail.test`, email_verified: true, name: `Google ${sub}` };
        },
      };
    },
  });
  provider.proxy = false;
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    discoveryUrl: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
