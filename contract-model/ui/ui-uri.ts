/**
 * The content-addressed URI of a UI artifact (L10):
 * `ui://skillpilot/coach/<major>/sha256-<hex>/index.html`.
 */
export function uiUri(contractMajor: number, sha256: string): string {
  return `ui://skillpilot/coach/${contractMajor}/sha256-${sha256}/index.html`;
}

const URI_PATTERN = /^ui:\/\/skillpilot\/coach\/([1-9][0-9]*)\/sha256-([0-9a-f]{64})\/index\.html$/;

/** Split a UI URI into its contract major and content hash; undefined when it is not one. */
export function parseUiUri(uri: string): { contractMajor: number; sha256: string } | undefined {
  const m = URI_PATTERN.exec(uri);
  return m ? { contractMajor: Number(m[1]), sha256: m[2] } : undefined;
}

/**
 * Repository-relative path where a retained artifact of `uri` lives: the URI path under
 * `contracts/ui/`.
 */
export function retainedUiPath(uri: string): string | undefined {
  return parseUiUri(uri) ? `contracts/ui/${uri.slice("ui://".length)}` : undefined;
}
