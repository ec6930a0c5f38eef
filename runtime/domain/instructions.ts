import type { RequiredAction } from "../../generated/types.gen.js";

type Locale = "en" | "de";

/** What the coach does next, per required action, in the session's locale (C3, C10). */
const templates: { readonly [A in RequiredAction]: Record<Locale, string> } = {
  teachActiveGoal: {
    en:
      'Teach the active goal "{title}": explain it, give a short exercise and ' +
      "discuss the learner's work. When the work shows the objective is met, " +
      "record it with complete_skillpilot_goal before saying progress is saved.",
    de:
      "Unterrichte das aktive Ziel „{title}“: erkläre es, gib eine kurze Übung " +
      "und besprich die Arbeit der lernenden Person. Wenn die Arbeit zeigt, " +
      "dass das Ziel erreicht ist, speichere es mit complete_skillpilot_goal, " +
      "bevor du sagst, dass der Fortschritt gespeichert ist.",
  },
  chooseOption: {
    en:
      "Offer these options in your own words and wait for the learner's " +
      "choice. When the choice is unambiguous, call choose_skillpilot_option " +
      "with that option's payload copied verbatim.",
    de:
      "Biete diese Optionen in eigenen Worten an und warte auf die Wahl der " +
      "lernenden Person. Ist die Wahl eindeutig, rufe choose_skillpilot_option " +
      "mit der unverändert kopierten Payload dieser Option auf.",
  },
  offerVerifiedRecall: {
    en:
      "Offer a short Verified Recall of earlier goals and start it only with " +
      "the learner's consent.",
    de:
      "Biete eine kurze Verified-Recall-Wiederholung früherer Ziele an und " +
      "starte sie nur mit Zustimmung der lernenden Person.",
  },
  takeAssessment: {
    en: 'Offer the assessment for "{title}"; grade it in chat and record only the integer score.',
    de:
      "Biete die Prüfung zu „{title}“ an; bewerte sie im Chat und speichere " +
      "nur die ganzzahlige Punktzahl.",
  },
  celebrateCompletion: {
    en:
      "The learner has mastered every goal of this curriculum. Celebrate the " +
      "achievement and summarise what was learned.",
    de:
      "Die lernende Person hat alle Ziele dieses Lehrplans gemeistert. Würdige " +
      "den Erfolg und fasse das Gelernte zusammen.",
  },
};

/** The instruction for an action, with `{title}` filled in. */
export function instructionFor(action: RequiredAction, locale: Locale, title = ""): string {
  return templates[action][locale].replaceAll("{title}", title);
}
