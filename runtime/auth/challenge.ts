/** What a Bearer challenge says (RFC 6750 §3, RFC 9728 §5.1). */
export interface ChallengeParams {
  /** The protected resource metadata URL, so a client can find the authorization server. */
  resourceMetadata: string;
  /** The scopes the request needs. */
  scopes: readonly string[];
  /**
   * Only when credentials were sent: `invalid_request` (RFC 6750 §3.1, e.g. two Authorization
   * headers), `invalid_token` or `insufficient_scope`.
   */
  error?: "invalid_request" | "invalid_token" | "insufficient_scope";
  /** A short human-readable reason; never the token or anything it contains. */
  description?: string;
}

/**
 * An RFC 9110 quoted-string: backslash and quote escaped; control characters, which a header
 * value cannot carry (CR/LF would split it), become spaces.
 */
const quoted = (value: string) =>
  `"${value.replace(/[\\"]/g, (c) => `\\${c}`).replace(/\p{Cc}/gu, " ")}"`;

/**
 * A `WWW-Authenticate: Bearer …` value. Without credentials it names only where to sign in and the
 * scope (RFC 6750 §3.1: no error code when the request had no token).
 */
export function bearerChallenge(params: ChallengeParams): string {
  const parts = [
    `resource_metadata=${quoted(params.resourceMetadata)}`,
    `scope=${quoted([...params.scopes].sort().join(" "))}`,
  ];
  if (params.error) parts.push(`error=${quoted(params.error)}`);
  if (params.error && params.description)
    parts.push(`error_description=${quoted(params.description)}`);
  return `Bearer ${parts.join(", ")}`;
}
