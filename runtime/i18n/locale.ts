import type { CommunicationLocale } from "../../generated/types.gen.js";

/**
 * A language the server speaks: the contract's `CommunicationLocale` (schemas), the one list of
 * languages. A new one is a value in that schema enum plus its catalog in `catalogs/`.
 */
export type Locale = CommunicationLocale;

/** The language of an answer when no session says otherwise. */
export const defaultLocale: Locale = "en";
