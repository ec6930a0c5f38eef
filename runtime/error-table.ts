import type { ErrorCode } from "../generated/types.gen.js";

/** Languages the error texts exist in (C3: at least en and de). */
export type MessageLocale = "en" | "de";

interface LocalizedText {
  message: string;
  recovery: string;
}

/** One row of the error table. */
export interface ErrorEntry {
  /** Session errors end with the first-party start instruction (C14). */
  session: boolean;
  /** HTTP status when the code answers a first-party HTTP request (launch API). */
  httpStatus: number;
  en: LocalizedText;
  de: LocalizedText;
}

/**
 * The single table of stable error codes. A code, once published, keeps its meaning; texts may be
 * reworded. `{launchUrl}` and `{successorUrl}` are filled in by `localizeError`.
 */
export const errorTable: { readonly [C in ErrorCode]: ErrorEntry } = {
  INVALID_INPUT: {
    session: false,
    httpStatus: 400,
    en: {
      message: "The tool arguments do not match the contract.",
      recovery: "Call the tool again with exactly the documented arguments and no extra fields.",
    },
    de: {
      message: "Die Tool-Argumente entsprechen nicht dem Vertrag.",
      recovery:
        "Rufe das Tool erneut mit genau den dokumentierten Argumenten und ohne " +
        "zusätzliche Felder auf.",
    },
  },
  SESSION_NOT_FOUND: {
    session: true,
    httpStatus: 404,
    en: {
      message: "This learning session is unknown.",
      recovery:
        "Stop structured coaching and ask the learner to start a new session at {launchUrl}.",
    },
    de: {
      message: "Diese Lernsitzung ist unbekannt.",
      recovery:
        "Beende das strukturierte Coaching und bitte die lernende Person, unter " +
        "{launchUrl} eine neue Sitzung zu starten.",
    },
  },
  SESSION_EXPIRED: {
    session: true,
    httpStatus: 410,
    en: {
      message: "This learning session has expired.",
      recovery:
        "Stop structured coaching and ask the learner to start a new session at {launchUrl}.",
    },
    de: {
      message: "Diese Lernsitzung ist abgelaufen.",
      recovery:
        "Beende das strukturierte Coaching und bitte die lernende Person, unter " +
        "{launchUrl} eine neue Sitzung zu starten.",
    },
  },
  SESSION_VERSION_UNAVAILABLE: {
    session: true,
    httpStatus: 409,
    en: {
      message:
        "The workflow version, curriculum or contract policy this session was " +
        "started under is no longer served.",
      recovery:
        "Stop structured coaching; progress is kept. Ask the learner to start a " +
        "new session at {launchUrl}.",
    },
    de: {
      message:
        "Die Workflow-Version, der Lehrplan oder die Vertragsrichtlinie, unter " +
        "denen diese Sitzung gestartet wurde, werden nicht mehr angeboten.",
      recovery:
        "Beende das strukturierte Coaching; der Fortschritt bleibt erhalten. " +
        "Bitte die lernende Person, unter {launchUrl} eine neue Sitzung zu " +
        "starten.",
    },
  },
  STATE_CONFLICT: {
    session: false,
    httpStatus: 409,
    en: {
      message: "The learning state changed since the context you used.",
      recovery:
        "Load the learning context once, re-evaluate, and retry with a fresh " +
        "clientRequestId. Stop if it conflicts again.",
    },
    de: {
      message: "Der Lernstand hat sich seit dem verwendeten Kontext geändert.",
      recovery:
        "Lade den Lernkontext einmal neu, bewerte neu und versuche es mit einer " +
        "neuen clientRequestId. Bei erneutem Konflikt abbrechen.",
    },
  },
  IDEMPOTENCY_KEY_REUSED: {
    session: false,
    httpStatus: 422,
    en: {
      message: "This clientRequestId was already used for a different request.",
      recovery:
        "Use a fresh clientRequestId for a new operation; reuse one only to " +
        "retry the identical call.",
    },
    de: {
      message: "Diese clientRequestId wurde bereits für eine andere Anfrage verwendet.",
      recovery:
        "Verwende für eine neue Aktion eine neue clientRequestId; wiederverwende " +
        "sie nur für die identische Wiederholung.",
    },
  },
  REQUEST_IN_PROGRESS: {
    session: false,
    httpStatus: 409,
    en: {
      message: "The same request is still being processed.",
      recovery: "Wait briefly, then retry the identical call with the same clientRequestId.",
    },
    de: {
      message: "Dieselbe Anfrage wird noch verarbeitet.",
      recovery:
        "Warte kurz und wiederhole dann den identischen Aufruf mit derselben clientRequestId.",
    },
  },
  NOT_ELIGIBLE: {
    session: false,
    httpStatus: 409,
    en: {
      message: "This action is not allowed in the current learning state.",
      recovery: "Load the learning context once and follow its requiredAction and allowedActions.",
    },
    de: {
      message: "Diese Aktion ist im aktuellen Lernstand nicht erlaubt.",
      recovery: "Lade den Lernkontext einmal und folge requiredAction und allowedActions.",
    },
  },
  OPTION_STALE: {
    session: false,
    httpStatus: 409,
    en: {
      message: "This option is no longer part of the current option set.",
      recovery:
        "Load the learning context once and copy a payload from its fresh options verbatim.",
    },
    de: {
      message: "Diese Option gehört nicht mehr zur aktuellen Auswahl.",
      recovery:
        "Lade den Lernkontext einmal und kopiere eine Payload aus den neuen Optionen unverändert.",
    },
  },
  CAPABILITY_INVALID: {
    session: false,
    httpStatus: 403,
    en: {
      message: "The capability is not valid for this session.",
      recovery:
        "Copy capabilities verbatim from the latest result of this session; " +
        "never edit or construct them.",
    },
    de: {
      message: "Die Berechtigung ist für diese Sitzung ungültig.",
      recovery:
        "Kopiere Berechtigungen unverändert aus dem letzten Ergebnis dieser " +
        "Sitzung; nie bearbeiten oder selbst bauen.",
    },
  },
  CAPABILITY_STALE: {
    session: false,
    httpStatus: 409,
    en: {
      message: "The capability is outdated.",
      recovery: "Load the learning context once and use the capability it carries now.",
    },
    de: {
      message: "Die Berechtigung ist veraltet.",
      recovery:
        "Lade den Lernkontext einmal und verwende die darin enthaltene aktuelle Berechtigung.",
    },
  },
  CAPABILITY_REPLAYED: {
    session: false,
    httpStatus: 409,
    en: {
      message: "The capability was already used by another request.",
      recovery:
        "Do not reuse a capability for a new operation; load the learning " +
        "context once to continue.",
    },
    de: {
      message: "Die Berechtigung wurde bereits von einer anderen Anfrage verwendet.",
      recovery:
        "Verwende eine Berechtigung nicht für eine neue Aktion; lade den " +
        "Lernkontext einmal, um fortzufahren.",
    },
  },
  BATCH_INCOMPLETE: {
    session: false,
    httpStatus: 422,
    en: {
      message: "The results do not cover exactly the items of the batch.",
      recovery: "Send exactly one passed decision per batch item, in batch order.",
    },
    de: {
      message: "Die Ergebnisse decken nicht genau die Einträge des Stapels ab.",
      recovery: "Sende genau eine passed-Entscheidung pro Stapeleintrag in Stapelreihenfolge.",
    },
  },
  SCORE_OUT_OF_RANGE: {
    session: false,
    httpStatus: 422,
    en: {
      message: "The score is outside the allowed range.",
      recovery: "Send an integer score between 0 and the maxScore of the assessment.",
    },
    de: {
      message: "Die Punktzahl liegt außerhalb des erlaubten Bereichs.",
      recovery: "Sende eine ganze Punktzahl zwischen 0 und maxScore der Prüfung.",
    },
  },
  MAJOR_UPGRADE_REQUIRED: {
    session: true,
    httpStatus: 410,
    en: {
      message: "This version of SkillPilot Coach no longer starts new sessions.",
      recovery: "Ask the learner to continue with the newer SkillPilot Coach at {successorUrl}.",
    },
    de: {
      message: "Diese Version von SkillPilot Coach startet keine neuen Sitzungen mehr.",
      recovery:
        "Bitte die lernende Person, mit dem neueren SkillPilot Coach unter " +
        "{successorUrl} fortzufahren.",
    },
  },
  AUTHENTICATION_REQUIRED: {
    session: false,
    httpStatus: 401,
    en: {
      message: "The learner is not signed in to SkillPilot Coach.",
      recovery:
        "Ask the learner to sign in (connect the SkillPilot Coach account), then call the " +
        "tool again. Do not claim anything was saved.",
    },
    de: {
      message: "Die lernende Person ist bei SkillPilot Coach nicht angemeldet.",
      recovery:
        "Bitte die lernende Person, sich anzumelden (das SkillPilot-Coach-Konto zu " +
        "verbinden), und rufe das Tool dann erneut auf. Behaupte nicht, etwas sei gespeichert.",
    },
  },
  INSUFFICIENT_SCOPE: {
    session: false,
    httpStatus: 403,
    en: {
      message: "The sign-in does not allow this action.",
      recovery:
        "Ask the learner to sign in again and grant the requested permission, then call the " +
        "tool again. Nothing was changed.",
    },
    de: {
      message: "Die Anmeldung erlaubt diese Aktion nicht.",
      recovery:
        "Bitte die lernende Person, sich erneut anzumelden und die angefragte Berechtigung " +
        "zu erteilen, und rufe das Tool dann erneut auf. Es wurde nichts geändert.",
    },
  },
  SESSION_SUBJECT_MISMATCH: {
    session: true,
    httpStatus: 403,
    en: {
      message: "This learning session belongs to another signed-in learner.",
      recovery:
        "Stop structured coaching and ask the learner to start their own session at {launchUrl}.",
    },
    de: {
      message: "Diese Lernsitzung gehört zu einer anderen angemeldeten Person.",
      recovery:
        "Beende das strukturierte Coaching und bitte die lernende Person, unter " +
        "{launchUrl} eine eigene Sitzung zu starten.",
    },
  },
  TEMPORARILY_UNAVAILABLE: {
    session: false,
    httpStatus: 503,
    en: {
      message: "This function is temporarily unavailable.",
      recovery: "Continue coaching in text without saving; try again later.",
    },
    de: {
      message: "Diese Funktion ist vorübergehend nicht verfügbar.",
      recovery: "Coache ohne Speichern im Text weiter; versuche es später erneut.",
    },
  },
  INTERNAL_ERROR: {
    session: false,
    httpStatus: 500,
    en: {
      message: "An internal error occurred; nothing was saved.",
      recovery:
        "Do not claim progress was saved. Retry the identical call once; stop " +
        "structured coaching if it fails again.",
    },
    de: {
      message: "Ein interner Fehler ist aufgetreten; nichts wurde gespeichert.",
      recovery:
        "Behaupte nicht, dass Fortschritt gespeichert wurde. Wiederhole den " +
        "identischen Aufruf einmal; bei erneutem Fehler strukturiertes Coaching " +
        "beenden.",
    },
  },
};

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
export function localizeError(
  code: ErrorCode,
  locale: MessageLocale,
  links: ErrorLinks,
): LocalizedError {
  const text = errorTable[code][locale];
  const fill = (s: string) =>
    s
      .replaceAll("{launchUrl}", links.launchUrl)
      .replaceAll("{successorUrl}", links.successorUrl ?? links.launchUrl);
  return { code, message: fill(text.message), recovery: fill(text.recovery) };
}
