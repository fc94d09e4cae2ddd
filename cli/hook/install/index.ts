import type { AgentHooks, AgentName } from "./agent";
import { claude } from "./claude";
import { codex } from "./codex";
import { cursor } from "./cursor";
import { gemini } from "./gemini";

export { AGENT_NAMES, type AgentHooks, type AgentName, type InstallScope } from "./agent";

/** Each agent's hook settings, by the name `--agent` takes. */
export const AGENT_HOOKS: Record<AgentName, AgentHooks> = { claude, codex, gemini, cursor };
