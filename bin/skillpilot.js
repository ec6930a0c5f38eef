#!/usr/bin/env node
// Entry point of the `skillpilot` CLI: registers tsx so the TypeScript sources run as they are.
import { register } from "tsx/esm/api";

register();
await import("./skillpilot.ts");
