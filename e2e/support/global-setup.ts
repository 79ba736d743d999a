import { freePort } from '../../scripts/throwaway-postgres.ts';
import { startAppServer } from './app-server.ts';
import { startOidcProvider } from './oidc-provider.ts';

/**
 * Starts the local OpenID provider first (the server reads its discovery document at start-up), then
 * the real server on a free port with a fresh embedded database and the demo catalog.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const port = await freePort();
  const oidc = await startOidcProvider([`http://127.0.0.1:${port}`]);
  const server = await startAppServer(
    { GOOGLE_CLIENT_ID: oidc.clientId, GOOGLE_CLIENT_SECRET: oidc.clientSecret, GOOGLE_DISCOVERY_URL: oidc.discoveryUrl },
    port,
  );
  process.env.E2E_BASE_URL = server.baseUrl;
  process.env.E2E_OIDC_ISSUER = oidc.issuer;

  return async () => {
    await server.stop();
    await oidc.stop();
  };
}
