import type { ErrorCode } from "../generated/types.gen.js";
import { catalogs, type ErrorText, fillPlaceholders, type Locale, locales } from "./i18n/index.js";

/** The facts of one error code besides its texts (those are in each language's catalog). */
export interface ErrorFacts {
  /** Session errors end with the first-party start instruction (C14). */
  session: boolean;
  /** HTTP status when the code answers a first-party HTTP request (launch API). */
  httpStatus: number;
}

/** One row of the error table: the code's facts and its text in every language. */
export type ErrorEntry = ErrorFacts & { readonly [L in Locale]: ErrorText };

const errorFacts: { readonly [C in ErrorCode]: ErrorFacts } = {
  INVALID_INPUT: { session: false, httpStatus: 400 },
  SESSION_NOT_FOUND: { session: true, httpStatus: 404 },
  SESSION_EXPIRED: { session: true, httpStatus: 410 },
  SESSION_VERSION_UNAVAILABLE: { session: true, httpStatus: 409 },
  STATE_CONFLICT: { session: false, httpStatus: 409 },
  IDEMPOTENCY_KEY_REUSED: { session: false, httpStatus: 422 },
  REQUEST_IN_PROGRESS: { session: false, httpStatus: 409 },
  NOT_ELIGIBLE: { session: false, httpStatus: 409 },
  OPTION_STALE: { session: false, httpStatus: 409 },
  CAPABILITY_INVALID: { session: false, httpStatus: 403 },
  CAPABILITY_STALE: { session: false, httpStatus: 409 },
  CAPABILITY_REPLAYED: { session: false, httpStatus: 409 },
  BATCH_INCOMPLETE: { session: false, httpStatus: 422 },
  SCORE_OUT_OF_RANGE: { session: false, httpStatus: 422 },
  MAJOR_UPGRADE_REQUIRED: { session: true, httpStatus: 410 },
  AUTHENTICATION_REQUIRED: { session: false, httpStatus: 401 },
  INSUFFICIENT_SCOPE: { session: false, httpStatus: 403 },
  SESSION_SUBJECT_MISMATCH: { session: true, httpStatus: 403 },
  TEMPORARILY_UNAVAILABLE: { session: false, httpStatus: 503 },
  INTERNAL_ERROR: { session: false, httpStatus: 500 },
};

/**
 * The single table of stable error codes. A code, once published, keeps its meaning; texts may be
 * reworded (in `runtime/i18n/catalogs/`). `{launchUrl}` and `{successorUrl}` are filled in by
 * `localizeError`.
 */
export const errorTable = Object.fromEntries(
  (Object.keys(errorFacts) as ErrorCode[]).map((code) => [
    code,
    {
      ...errorFacts[code],
      ...Object.fromEntries(locales.map((locale) => [locale, catalogs[locale].errors[code]])),
    },
  ]),
) as { readonly [C in ErrorCode]: ErrorEntry };

/** The wire shape of a failed call (schemas/envelopes/error.schema.json). */
export interface LocalizedError {
  code: ErrorCode;
  message: string;
  recovery: string;
}

/** Where the texts point people to: the first-party start page and, on BLOCK, the successor's. */
export interface ErrorLinks {
  launchUrl: string;
  successorUrl?: string;
}

/** Render one code in a locale, filling in the first-party links. */
export function localizeError(code: ErrorCode, locale: Locale, links: ErrorLinks): LocalizedError {
  const text = catalogs[locale].errors[code];
  const values = {
    launchUrl: links.launchUrl,
    successorUrl: links.successorUrl ?? links.launchUrl,
  };
  return {
    code,
    message: fillPlaceholders(text.message, values),
    recovery: fillPlaceholders(text.recovery, values),
  };
}
