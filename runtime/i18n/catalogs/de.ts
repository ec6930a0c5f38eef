import type { Messages } from "../messages.js";

/** Every German text of the server; its keys and placeholders are the English catalog's. */
export const de: Messages = {
  languageName: "Deutsch",
  errors: {
    INVALID_INPUT: {
      message: "Die Tool-Argumente entsprechen nicht dem Vertrag.",
      recovery:
        "Rufe das Tool erneut mit genau den dokumentierten Argumenten und ohne " +
        "zusätzliche Felder auf.",
    },
    SESSION_NOT_FOUND: {
      message: "Diese Lernsitzung ist unbekannt.",
      recovery:
        "Beende das strukturierte Coaching und bitte die lernende Person, unter " +
        "{launchUrl} eine neue Sitzung zu starten.",
    },
    SESSION_EXPIRED: {
      message: "Diese Lernsitzung ist abgelaufen.",
      recovery:
        "Beende das strukturierte Coaching und bitte die lernende Person, unter " +
        "{launchUrl} eine neue Sitzung zu starten.",
    },
    SESSION_VERSION_UNAVAILABLE: {
      message:
        "Die Workflow-Version, der Lehrplan oder die Vertragsrichtlinie, unter " +
        "denen diese Sitzung gestartet wurde, werden nicht mehr angeboten.",
      recovery:
        "Beende das strukturierte Coaching; der Fortschritt bleibt erhalten. " +
        "Bitte die lernende Person, unter {launchUrl} eine neue Sitzung zu " +
        "starten.",
    },
    STATE_CONFLICT: {
      message: "Der Lernstand hat sich seit dem verwendeten Kontext geändert.",
      recovery:
        "Lade den Lernkontext einmal neu, bewerte neu und versuche es mit einer " +
        "neuen clientRequestId. Bei erneutem Konflikt abbrechen.",
    },
    IDEMPOTENCY_KEY_REUSED: {
      message: "Diese clientRequestId wurde bereits für eine andere Anfrage verwendet.",
      recovery:
        "Verwende für eine neue Aktion eine neue clientRequestId; wiederverwende " +
        "sie nur für die identische Wiederholung.",
    },
    REQUEST_IN_PROGRESS: {
      message: "Dieselbe Anfrage wird noch verarbeitet.",
      recovery:
        "Warte kurz und wiederhole dann den identischen Aufruf mit derselben clientRequestId.",
    },
    NOT_ELIGIBLE: {
      message: "Diese Aktion ist im aktuellen Lernstand nicht erlaubt.",
      recovery: "Lade den Lernkontext einmal und folge requiredAction und allowedActions.",
    },
    OPTION_STALE: {
      message: "Diese Option gehört nicht mehr zur aktuellen Auswahl.",
      recovery:
        "Lade den Lernkontext einmal und kopiere eine Payload aus den neuen Optionen unverändert.",
    },
    CAPABILITY_INVALID: {
      message: "Die Berechtigung ist für diese Sitzung ungültig.",
      recovery:
        "Kopiere Berechtigungen unverändert aus dem letzten Ergebnis dieser " +
        "Sitzung; nie bearbeiten oder selbst bauen.",
    },
    CAPABILITY_STALE: {
      message: "Die Berechtigung ist veraltet.",
      recovery:
        "Lade den Lernkontext einmal und verwende die darin enthaltene aktuelle Berechtigung.",
    },
    CAPABILITY_REPLAYED: {
      message: "Die Berechtigung wurde bereits von einer anderen Anfrage verwendet.",
      recovery:
        "Verwende eine Berechtigung nicht für eine neue Aktion; lade den " +
        "Lernkontext einmal, um fortzufahren.",
    },
    BATCH_INCOMPLETE: {
      message: "Die Ergebnisse decken nicht genau die Einträge des Stapels ab.",
      recovery: "Sende genau eine passed-Entscheidung pro Stapeleintrag in Stapelreihenfolge.",
    },
    SCORE_OUT_OF_RANGE: {
      message: "Die Punktzahl liegt außerhalb des erlaubten Bereichs.",
      recovery: "Sende eine ganze Punktzahl zwischen 0 und maxScore der Prüfung.",
    },
    MAJOR_UPGRADE_REQUIRED: {
      message: "Diese Version von SkillPilot Coach startet keine neuen Sitzungen mehr.",
      recovery:
        "Bitte die lernende Person, mit dem neueren SkillPilot Coach unter " +
        "{successorUrl} fortzufahren.",
    },
    AUTHENTICATION_REQUIRED: {
      message: "Die lernende Person ist bei SkillPilot Coach nicht angemeldet.",
      recovery:
        "Bitte die lernende Person, sich anzumelden (das SkillPilot-Coach-Konto zu " +
        "verbinden), und rufe das Tool dann erneut auf. Behaupte nicht, etwas sei gespeichert.",
    },
    INSUFFICIENT_SCOPE: {
      message: "Die Anmeldung erlaubt diese Aktion nicht.",
      recovery:
        "Bitte die lernende Person, sich erneut anzumelden und die angefragte Berechtigung " +
        "zu erteilen, und rufe das Tool dann erneut auf. Es wurde nichts geändert.",
    },
    SESSION_SUBJECT_MISMATCH: {
      message: "Diese Lernsitzung gehört zu einer anderen angemeldeten Person.",
      recovery:
        "Beende das strukturierte Coaching und bitte die lernende Person, unter " +
        "{launchUrl} eine eigene Sitzung zu starten.",
    },
    TEMPORARILY_UNAVAILABLE: {
      message: "Diese Funktion ist vorübergehend nicht verfügbar.",
      recovery: "Coache ohne Speichern im Text weiter; versuche es später erneut.",
    },
    INTERNAL_ERROR: {
      message: "Ein interner Fehler ist aufgetreten; nichts wurde gespeichert.",
      recovery:
        "Behaupte nicht, dass Fortschritt gespeichert wurde. Wiederhole den " +
        "identischen Aufruf einmal; bei erneutem Fehler strukturiertes Coaching " +
        "beenden.",
    },
  },
  instructions: {
    teachActiveGoal:
      "Unterrichte das aktive Ziel „{title}“: erkläre es, gib eine kurze Übung " +
      "und besprich die Arbeit der lernenden Person. Wenn die Arbeit zeigt, " +
      "dass das Ziel erreicht ist, speichere es mit complete_skillpilot_goal, " +
      "bevor du sagst, dass der Fortschritt gespeichert ist.",
    chooseOption:
      "Biete diese Optionen in eigenen Worten an und warte auf die Wahl der " +
      "lernenden Person. Ist die Wahl eindeutig, rufe choose_skillpilot_option " +
      "mit der unverändert kopierten Payload dieser Option auf.",
    offerVerifiedRecall:
      "Biete eine kurze Verified-Recall-Wiederholung früherer Ziele an und " +
      "starte sie nur mit Zustimmung der lernenden Person.",
    takeAssessment:
      "Biete die Prüfung zu „{title}“ an; bewerte sie im Chat und speichere " +
      "nur die ganzzahlige Punktzahl.",
    celebrateCompletion:
      "Die lernende Person hat alle Ziele dieses Lehrplans gemeistert. Würdige " +
      "den Erfolg und fasse das Gelernte zusammen.",
  },
  goalImage: {
    status: {
      locked: "Gesperrt",
      available: "Verfügbar",
      active: "Aktives Ziel",
      mastered: "Gemeistert",
    },
    buildsOn: "Baut auf",
    none: "Keine Voraussetzungen",
    more: "+ {count} weitere",
    position: "Ziel {index} von {total}",
  },
  startPage: {
    title: "SkillPilot Coach starten",
    heading: "Lernsitzung starten",
    intro: "Starte hier eine Sitzung und lerne dann im Chat mit SkillPilot Coach weiter.",
    languageNav: "Sprache",
    laneNav: "Wo du lernst",
    "lane.openai": "Mit ChatGPT",
    "lane.claude": "Mit Claude",
    "lane.gemini": "Mit Gemini Enterprise",
    "lane.mcp": "Mit einem anderen MCP-Client (Gemini CLI, VS Code, Cursor …)",
    nameLabel: "Dein Name",
    nameHint: "Unter diesem Namen wird dein Fortschritt gespeichert. Der Chat sieht ihn nie.",
    devNameLabel: "Dein Name (lokale Entwicklung)",
    devNameHint:
      "Dieser Server läuft zur Entwicklung auf diesem Computer, ohne Anmeldedienst: Der Name, " +
      "den du eingibst, ist dein Konto, Buchstabe für Buchstabe. Ein echter Server meldet dich " +
      "stattdessen an. Der Chat sieht ihn nie.",
    signInIntro:
      "Melde dich mit deinem Konto an, um eine Sitzung zu starten. Dein Fortschritt bleibt dabei.",
    signIn: "Anmelden",
    signOut: "Abmelden",
    signInFailed: "Die Anmeldung wurde nicht abgeschlossen. Bitte versuche es noch einmal.",
    signInUnreachable:
      "Der Anmeldedienst hat nicht geantwortet. Bitte versuche es in ein paar Minuten erneut; " +
      "wenn es wieder passiert, nenne dem Support den Code unten.",
    signedInAs: "Angemeldet als {name}",
    localeLabel: "Sprache des Coachings",
    keyLabel: "Startschlüssel",
    keyHint:
      "Dieser Server ist im Netzwerk erreichbar. Gib den Startschlüssel ein, den du bekommen hast.",
    submit: "Sitzung starten",
    submitting: "Wird gestartet…",
    readyHeading: "Deine Sitzung ist bereit",
    readyNext: "Kopiere diese Nachricht und sende sie im Chat mit SkillPilot Coach:",
    chatMessage: "Setze meine SkillPilot-Coach-Sitzung fort: {id}",
    copy: "Nachricht kopieren",
    copied: "Kopiert. Füge sie in deinen Chat ein.",
    copyFailed: "Kopieren ging nicht. Markiere die Nachricht und kopiere sie selbst.",
    expires: "Die Sitzung gilt bis {time}.",
    sessionIdLabel: "Sitzungs-ID",
    connector:
      "Noch nicht verbunden? Füge SkillPilot Coach mit dieser Serveradresse zu deiner Chat-App hinzu:",
    warnHeading: "Ein neuerer SkillPilot Coach ist verfügbar",
    warnText:
      "Diese Version startet bald keine Sitzungen mehr. Wechsle zur neueren Version oder starte " +
      "hier noch eine Sitzung.",
    openSuccessor: "Neuere Version öffnen",
    continueHere: "Trotzdem hier starten",
    errorHeading: "Die Sitzung konnte nicht gestartet werden",
    errorCode: "Fehlercode für den Support: {code}",
    "error.INVALID_INPUT":
      "Bitte prüfe deinen Namen: Er darf nicht leer sein und höchstens 200 Zeichen haben.",
    "error.UNAUTHORIZED":
      "Der Startschlüssel fehlt oder ist falsch. Frag nach dem aktuellen Schlüssel.",
    "error.MAJOR_UPGRADE_REQUIRED":
      "Diese Version von SkillPilot Coach startet keine Sitzungen mehr. Bitte mach mit der " +
      "neueren Version weiter.",
    "error.TEMPORARILY_UNAVAILABLE":
      "Das Starten von Sitzungen ist gerade pausiert. Bitte versuche es später erneut.",
    "error.NETWORK_ERROR":
      "Der Server war nicht erreichbar. Prüfe deine Verbindung und versuche es erneut.",
    "error.SIGN_IN_EXPIRED":
      "Deine Anmeldung ist abgelaufen. Bitte melde dich erneut an, um eine Sitzung zu starten.",
    "error.other":
      "Bei uns ist etwas schiefgelaufen. Nichts wurde gespeichert. Bitte versuche es gleich noch einmal.",
  },
};
