import type { Context, Middleware } from "koa";
import { errorTable, localizeError } from "../error-table.js";
import { defaultLocale, isLocale } from "../i18n/index.js";
import { isValidLearnerName, type LaunchTarget, launchSession } from "../domain/launch.js";
import type { RuntimeServices } from "../services.js";
import { primaryLaneId } from "../lanes/lane.js";

/**
 * `POST /api/sessions {learner, locale?, acknowledgeSuccessor?, contractMajor?, lane?}`: the
 * first-party launch, for the primary contract major or the one named (a major this server serves;
 * its own line decides), on the openai lane or the provider lane named (whose endpoint alone will
 * serve the session; its answer's `mcpUrl` is that lane's). 201 with the sps_… id; 409 when a WARN
 * line needs the explicit acknowledgement; the error table's status with `{code, message,
 * recovery}` when the line refuses (L11). `mcpUrl` names the endpoint that serves the session (a
 * further major's: its internal adapter path), as configured (see
 * `launchMcpUrl`), never as the request's Host header says. The learner comes from the start
 * page's sign-in when the browser is signed in.
 */
export function launchRoute(
  services: RuntimeServices,
  /** The MCP URL that serves sessions of a major (the primary one's when none is named). */
  mcpUrl: (contractMajor?: number) => string,
  targetOf: (contractMajor: number) => LaunchTarget | undefined = () => undefined,
  signedIn: (ctx: Context) => { sub: string } | undefined = () => undefined,
): Middleware {
  return async (ctx) => {
    const sent = (ctx.request as unknown as { body?: unknown }).body as
      | Record<string, unknown>
      | undefined;
    // A learner signed in on the start page launches for their own subject at the issuer; a body
    // naming someone else is refused.
    const self = signedIn(ctx);
    const foreign = self && sent?.learner !== undefined && sent.learner !== self.sub;
    const body =
      self && !foreign && sent && typeof sent === "object" ? { ...sent, learner: self.sub } : sent;
    const locale = body?.locale ?? defaultLocale;
    const keys = body && typeof body === "object" ? Object.keys(body) : [];
    const known = new Set(["learner", "locale", "acknowledgeSuccessor", "contractMajor", "lane"]);
    // A session is for one provider lane; its answer names that lane's MCP URL.
    const lanes = services.auth.settings.lanes;
    const lane =
      body?.lane === undefined
        ? undefined
        : lanes.find((l) => l.id === body.lane && l.id !== primaryLaneId);
    const laneInvalid =
      body?.lane !== undefined && body.lane !== primaryLaneId && lane === undefined;
    const target =
      body?.contractMajor === undefined
        ? undefined
        : typeof body.contractMajor === "number"
          ? (targetOf(body.contractMajor) ?? null)
          : null;
    if (
      foreign ||
      !body ||
      keys.some((k) => !known.has(k)) ||
      !isValidLearnerName(body.learner) ||
      !isLocale(locale) ||
      (body.acknowledgeSuccessor !== undefined && typeof body.acknowledgeSuccessor !== "boolean") ||
      // A major this server does not serve is no launch target, nor is a lane it does not serve;
      // a lane serves the primary major only.
      target === null ||
      laneInvalid ||
      (lane !== undefined &&
        target !== undefined &&
        target.contractMajor !== services.identity.contractMajor)
    ) {
      ctx.status = errorTable.INVALID_INPUT.httpStatus;
      ctx.body = localizeError("INVALID_INPUT", defaultLocale, {
        launchUrl: services.config.launchUrl,
      });
      return;
    }
    let result: Awaited<ReturnType<typeof launchSession>>;
    try {
      result = await launchSession(
        services,
        {
          learner: body.learner,
          locale,
          acknowledgeSuccessor: body.acknowledgeSuccessor === true,
          ...(lane && { lane: lane.id }),
        },
        target,
      );
    } catch (error) {
      // A failing store (a full disk, a lost connection): the transaction was rolled back, so the
      // answer is the error envelope saying nothing was saved, never a bare 500 page. The log gets
      // the error's name and code only.
      services.logger.error(
        {
          err: error instanceof Error ? error.name : "unknown",
          code: (error as { code?: unknown }).code,
        },
        "launch failed",
      );
      ctx.status = errorTable.INTERNAL_ERROR.httpStatus;
      ctx.body = localizeError("INTERNAL_ERROR", locale, { launchUrl: services.config.launchUrl });
      return;
    }
    if (result.kind === "minted") {
      ctx.status = 201;
      const { kind: _kind, ...minted } = result;
      ctx.body = { ...minted, mcpUrl: lane ? lane.resource : mcpUrl(target?.contractMajor) };
    } else if (result.kind === "acknowledgementRequired") {
      ctx.status = 409;
      ctx.body = { acknowledgementRequired: true, successor: result.successor };
    } else {
      ctx.status = errorTable[result.error.code].httpStatus;
      ctx.body = { ...result.error, ...(result.successor && { successor: result.successor }) };
    }
  };
}
