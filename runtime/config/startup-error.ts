/** Why the server refused to start. Stable codes; the message says what to do. */
export type StartupErrorCode =
  | "CONFIG_UNREADABLE"
  | "CONFIG_INVALID"
  | "PORT_INVALID"
  | "LOG_UNWRITABLE"
  | "DATA_DIR_UNUSABLE"
  | "DATABASE_UNREACHABLE"
  | "DATABASE_DAMAGED"
  | "PORT_IN_USE"
  | "LISTEN_FAILED"
  | "UI_STORE_INCOMPLETE"
  | "STATE_SCHEMA_UNKNOWN"
  | "STATE_MIGRATION_FAILED"
  | "POLICY_REVISION_LOWERED"
  | "AUTH_CONFIG_INVALID"
  | "CLIENT_POLICY_CONFLICT"
  | "CLIENT_POLICY_ROLLBACK_REFUSED"
  | "CLIENT_POLICY_ROLLBACK_INCOMPATIBLE"
  | "CONTRACT_MAJOR_UNUSABLE";

/**
 * A start-up problem a person fixes (configuration, a busy port, a missing artifact): the CLI
 * prints its message and exits 2, with no stack. Anything else thrown at start-up is a bug.
 */
export class StartupError extends Error {
  override name = "StartupError";
  constructor(
    readonly code: StartupErrorCode,
    message: string,
  ) {
    super(message);
  }
}
