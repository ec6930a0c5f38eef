import type {
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { nativeCimdProfile as desktopProfile } from "../../runtime/support/oidc-authorization-server.js";

/** Where the e2e OAuth clients say they receive the authorization response. */
export const CALLBACK = "http://127.0.0.1:53682/callback/skillpilot-e2e";

/** The official client's OAuth storage, in memory: a pre-registered public client. */
export class MemoryProvider implements OAuthClientProvider {
  authorizationUrls: URL[] = [];
  private stored?: StoredOAuthTokens;
  private verifier = "";
  private discovery?: OAuthDiscoveryState;
  private client: StoredOAuthClientInformation;
  constructor(issuer: string) {
    // A pre-registered client, bound to the authorization server it is registered at.
    this.client = { client_id: desktopProfile.clientId, issuer };
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  get redirectUrl() {
    return CALLBACK;
  }
  get clientMetadata() {
    return {
      client_name: "SkillPilot e2e",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: StoredOAuthClientInformation) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrls.push(url);
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}
