import { toolDescriptors } from "../generated/tools.gen.js";
import { deriveTurnFacts, type ToolShape } from "../contract-model/trace/turn-facts.js";
import type { RuntimeConfig } from "./config/config.js";
import type { RuntimeIdentity } from "./identity.js";
import type { RuntimeMetrics } from "./observability/metrics.js";
import { openTrafficTaps, type TrafficTaps } from "./observability/traffic-taps.js";
import { TurnMonitor } from "./observability/turn-monitor.js";

/**
 * What watches the served contract's traffic: the live turn monitor (always on; it only counts
 * and logs) and the traffic taps a configuration turns on (a self-trace, OpenTelemetry spans). The
 * contract's facts are derived here, at the composition root, from the descriptors the endpoint
 * serves, and handed down.
 */
export async function contractObservers(
  config: RuntimeConfig,
  identity: RuntimeIdentity,
  logHmacKey: string,
  metrics: RuntimeMetrics,
  tools: readonly ToolShape[] = toolDescriptors,
): Promise<{ turnMonitor: TurnMonitor; traffic?: TrafficTaps }> {
  const facts = deriveTurnFacts(tools);
  const turnMonitor = new TurnMonitor(facts, metrics.deviations, {
    contractMajor: String(identity.contractMajor),
    pluginLine: identity.pluginLine,
  });
  const traffic = await openTrafficTaps({
    ...(config.traceFile && { traceFile: config.traceFile }),
    ...(config.openTelemetry && {
      tracing: {
        tracesEndpoint: config.openTelemetry.tracesEndpoint,
        serviceName: config.openTelemetry.serviceName ?? identity.packageName,
        serviceVersion: identity.serverBuild,
        ...(config.openTelemetry.protocol && { protocol: config.openTelemetry.protocol }),
      },
    }),
    spansDropped: metrics.spansDropped,
    logHmacKey,
    facts,
    tools,
  });
  return { turnMonitor, ...(traffic && { traffic }) };
}
