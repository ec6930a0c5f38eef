import type { ErrorCode, RequiredAction } from "../../../generated/types.gen.js";
import type { ErrorText } from "../error-text.js";

/**
 * Every English text of the server: the reference catalog. Its shape is the type every other
 * language's catalog must have (`Messages`), so a text missing there is a compile error. `{name}`
 * marks a placeholder; each language uses the same placeholders in each text.
 */
export const en = {
  /** The language's own name, as the start page's language links and choices show it. */
  languageName: "English",
  /**
   * Error texts for the chat model, one per stable code (C3, C14). A code keeps its meaning; its
   * texts may be reworded. `{launchUrl}` and `{successorUrl}` are filled in by `localizeError`.
   */
  errors: {
    INVALID_INPUT: {
      message: "The tool arguments do not match the contract.",
      recovery: "Call the tool again with exactly the documented arguments and no extra fields.",
    },
    SESSION_NOT_FOUND: {
      message: "This learning session is unknown.",
      recovery:
        "Stop structured coaching and ask the learner to start a new session at {launchUrl}.",
    },
    SESSION_EXPIRED: {
      message: "This learning session has expired.",
      recovery:
        "Stop structured coaching and ask the learner to start a new session at {launchUrl}.",
    },
    SESSION_VERSION_UNAVAILABLE: {
      message:
        "The workflow version, curriculum or contract policy this session was " +
        "started under is no longer served.",
      recovery:
        "Stop structured coaching; progress is kept. Ask the learner to start a " +
        "new session at {launchUrl}.",
    },
    STATE_CONFLICT: {
      message: "The learning state changed since the context you used.",
      recovery:
        "Load the learning context once, re-evaluate, and retry with a fresh " +
        "clientRequestId. Stop if it conflicts again.",
    },
    IDEMPOTENCY_KEY_REUSED: {
      message: "This clientRequestId was already used for a different request.",
      recovery:
        "Use a fresh clientRequestId for a new operation; reuse one only to " +
        "retry the identical call.",
    },
    REQUEST_IN_PROGRESS: {
      message: "The same request is still being processed.",
      recovery: "Wait briefly, then retry the identical call with the same clientRequestId.",
    },
    NOT_ELIGIBLE: {
      message: "This action is not allowed in the current learning state.",
      recovery: "Load the learning context once and follow its requiredAction and allowedActions.",
    },
    OPTION_STALE: {
      message: "This option is no longer part of the current option set.",
      recovery:
        "Load the learning context once and copy a payload from its fresh options verbatim.",
    },
    CAPABILITY_INVALID: {
      message: "The capability is not valid for this session.",
      recovery:
        "Copy capabilities verbatim from the latest result of this session; " +
        "never edit or construct them.",
    },
    CAPABILITY_STALE: {
      message: "The capability is outdated.",
      recovery: "Load the learning context once and use the capability it carries now.",
    },
    CAPABILITY_REPLAYED: {
      message: "The capability was already used by another request.",
      recovery:
        "Do not reuse a capability for a new operation; load the learning " +
        "context once to continue.",
    },
    BATCH_INCOMPLETE: {
      message: "The results do not cover exactly the items of the batch.",
      recovery: "Send exactly one passed decision per batch item, in batch order.",
    },
    SCORE_OUT_OF_RANGE: {
      message: "The score is outside the allowed range.",
      recovery: "Send an integer score between 0 and the maxScore of the assessment.",
    },
    MAJOR_UPGRADE_REQUIRED: {
      message: "This version of SkillPilot Coach no longer starts new sessions.",
      recovery: "Ask the learner to continue with the newer SkillPilot Coach at {successorUrl}.",
    },
    AUTHENTICATION_REQUIRED: {
      message: "The learner is not signed in to SkillPilot Coach.",
      recovery:
        "Ask the learner to sign in (connect the SkillPilot Coach account), then call the " +
        "tool again. Do not claim anything was saved.",
    },
    INSUFFICIENT_SCOPE: {
      message: "The sign-in does not allow this action.",
      recovery:
        "Ask the learner to sign in again and grant the requested permission, then call the " +
        "tool again. Nothing was changed.",
    },
    SESSION_SUBJECT_MISMATCH: {
      message: "This learning session belongs to another signed-in learner.",
      recovery:
        "Stop structured coaching and ask the learner to start their own session at {launchUrl}.",
    },
    TEMPORARILY_UNAVAILABLE: {
      message: "This function is temporarily unavailable.",
      recovery: "Continue coaching in text without saving; try again later.",
    },
    INTERNAL_ERROR: {
      message: "An internal error occurred; nothing was saved.",
      recovery:
        "Do not claim progress was saved. Retry the identical call once; stop " +
        "structured coaching if it fails again.",
    },
  } satisfies Record<ErrorCode, ErrorText>,
  /** What the coach does next, per required action (C3, C10); `{title}` is the goal's. */
  instructions: {
    teachActiveGoal:
      'Teach the active goal "{title}": explain it, give a short exercise and ' +
      "discuss the learner's work. When the work shows the objective is met, " +
      "record it with complete_skillpilot_goal before saying progress is saved.",
    chooseOption:
      "Offer these options in your own words and wait for the learner's " +
      "choice. When the choice is unambiguous, call choose_skillpilot_option " +
      "with that option's payload copied verbatim.",
    offerVerifiedRecall:
      "Offer a short Verified Recall of earlier goals and start it only with " +
      "the learner's consent.",
    takeAssessment:
      'Offer the assessment for "{title}"; grade it in chat and record only the integer score.',
    celebrateCompletion:
      "The learner has mastered every goal of this curriculum. Celebrate the " +
      "achievement and summarise what was learned.",
  } satisfies Record<RequiredAction, string>,
  /** The labels drawn into a goal's image (the goal-visualization widget). */
  goalImage: {
    status: {
      locked: "Locked",
      available: "Available",
      active: "Active goal",
      mastered: "Mastered",
    },
    buildsOn: "Builds on",
    none: "No prerequisites",
    more: "+ {count} more",
    position: "Goal {index} of {total}",
  },
  /**
   * The start page's texts, for people (the error texts above address the chat model, so the page
   * has its own words for the launch outcomes and shows the stable code beside them). The page's
   * script reads them too: `error.<code>` for a refusal it knows, `error.other` otherwise.
   */
  startPage: {
    title: "Start SkillPilot Coach",
    heading: "Start a learning session",
    intro: "Start a session here, then continue learning in your chat with SkillPilot Coach.",
    languageNav: "Language",
    laneNav: "Where you will study",
    "lane.openai": "In ChatGPT",
    "lane.claude": "In Claude",
    "lane.gemini": "In Gemini Enterprise",
    "lane.mcp": "In another MCP client (Gemini CLI, VS Code, Cursor…)",
    nameLabel: "Your name",
    nameHint: "Your progress is kept under this name. The chat never sees it.",
    devNameLabel: "Your name (local development)",
    devNameHint:
      "This server runs for development on this computer, without a sign-in service: the name " +
      "you type is your account, letter for letter. A real server signs you in instead. The " +
      "chat never sees it.",
    signInIntro: "Sign in with your account to start a session. Your progress is kept with it.",
    signIn: "Sign in",
    signOut: "Sign out",
    signInFailed: "The sign-in did not complete. Please try again.",
    signInUnreachable:
      "The sign-in service did not answer. Please try again in a few minutes; if it keeps " +
      "happening, tell support the code below.",
    signedInAs: "Signed in as {name}",
    localeLabel: "Coaching language",
    keyLabel: "Launch key",
    keyHint: "This server is reachable from the network. Enter the launch key you were given.",
    submit: "Start session",
    submitting: "Starting…",
    readyHeading: "Your session is ready",
    readyNext: "Copy this message and send it in your chat with SkillPilot Coach:",
    chatMessage: "Continue my SkillPilot Coach session: {id}",
    copy: "Copy message",
    copied: "Copied. Paste it into your chat.",
    copyFailed: "Could not copy. Select the message and copy it yourself.",
    expires: "The session is valid until {time}.",
    sessionIdLabel: "Session ID",
    connector: "Not connected yet? Add SkillPilot Coach to your chat app with this server address:",
    warnHeading: "A newer SkillPilot Coach is available",
    warnText:
      "This version will soon stop starting sessions. Switch to the newer version, or start " +
      "one more session here.",
    openSuccessor: "Open the newer version",
    continueHere: "Start here anyway",
    errorHeading: "The session could not be started",
    errorCode: "Error code for support: {code}",
    "error.INVALID_INPUT":
      "Please check your name: it must not be empty and can have at most 200 characters.",
    "error.UNAUTHORIZED": "The launch key is missing or wrong. Ask for the current key.",
    "error.MAJOR_UPGRADE_REQUIRED":
      "This version of SkillPilot Coach no longer starts sessions. Please continue with the " +
      "newer version.",
    "error.TEMPORARILY_UNAVAILABLE":
      "Starting sessions is paused at the moment. Please try again later.",
    "error.NETWORK_ERROR": "The server could not be reached. Check your connection and try again.",
    "error.SIGN_IN_EXPIRED": "Your sign-in has expired. Please sign in again to start a session.",
    "error.other": "Something went wrong on our side. Nothing was saved. Please try again shortly.",
  },
};
