/** 1980-01-01T00:00:00Z: the earliest time a ZIP (DOS) timestamp can hold. */
const ZIP_EPOCH_SECONDS = 315532800;

/**
 * The one timestamp every archive entry carries. `SOURCE_DATE_EPOCH` (reproducible-builds.org) may
 * move it forward; it never goes below the ZIP epoch, so tar and ZIP agree on it.
 */
export function fixedArchiveTime(env: NodeJS.ProcessEnv = process.env): Date {
  const requested = Number(env.SOURCE_DATE_EPOCH ?? ZIP_EPOCH_SECONDS);
  const seconds = Number.isFinite(requested) ? Math.floor(requested) : ZIP_EPOCH_SECONDS;
  return new Date(Math.max(ZIP_EPOCH_SECONDS, seconds) * 1000);
}
