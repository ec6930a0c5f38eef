import type { SessionRecord } from "../domain/ports/coach-store.js";
import type { Locale } from "../i18n/index.js";

/** A `sessions` row as both SQL dialects return it (PostgreSQL gives bigint columns as strings). */
export interface SessionRow {
  session_id: string;
  learner_id: number;
  locale: Locale;
  contract_major: number;
  workflow_version: string;
  curriculum_revision: string;
  policy_revision: number;
  created_at: string;
  expires_at: number | string;
  subject_issuer?: string | null;
  subject?: string | null;
  lane?: string | null;
}

/** The values of a sessions row in column order (session_id … lane), both dialects. */
export function sessionValues(r: SessionRecord): unknown[] {
  return [
    r.sessionId,
    r.learnerId,
    r.locale,
    r.contractMajor,
    r.workflowVersion,
    r.curriculumRevision,
    r.policyRevision,
    r.createdAt,
    r.expiresAt,
    r.subject?.issuer ?? null,
    r.subject?.sub ?? null,
    r.lane ?? null,
  ];
}

/** Map a sessions row to the store's record. */
export function toSession(row: SessionRow | undefined): SessionRecord | undefined {
  if (!row) return undefined;
  return {
    sessionId: row.session_id,
    learnerId: row.learner_id,
    locale: row.locale,
    contractMajor: row.contract_major,
    workflowVersion: row.workflow_version,
    curriculumRevision: row.curriculum_revision,
    policyRevision: row.policy_revision,
    createdAt: row.created_at,
    expiresAt: Number(row.expires_at),
    ...(row.subject && row.subject_issuer
      ? { subject: { issuer: row.subject_issuer, sub: row.subject } }
      : {}),
    ...(row.lane ? { lane: row.lane } : {}),
  };
}
