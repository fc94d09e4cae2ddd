import type { AgentEventInput } from "@/lib/schemas/events";
import { HOOK_MAX_TOOL_OUTPUT } from "./events";
import type { LastReply } from "./transcript";

/** A hook payload that cannot become an event: said on stderr, nothing sent. */
export class PayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PayloadError";
  }
}

export type BuildOptions = {
  id?: string;
  now?: Date;
  readReply?: (transcriptPath: string) => LastReply;
};

export type Built = { event: AgentEventInput; warnings: string[] };

/**
 * Cuts every string longer than the server keeps (MAX_TOOL_OUTPUT) to its head and tail,
 * where a command and its final error or exit code are. Keeps a Read of a large file or
 * an Edit's originalFile from making requests and spool files of megabytes.
 */
export function clipDeep(value: unknown, max: number = HOOK_MAX_TOOL_OUTPUT): unknown {
  if (typeof value === "string") {
    if (value.length <= max) return value;
    const half = Math.floor(max / 2);
    return `${value.slice(0, half)}\n…[${value.length - 2 * half} characters cut by charter hook]…\n${value.slice(-half)}`;
  }
  if (Array.isArray(value)) return value.map((item) => clipDeep(item, max));
  if (value && typeof value === "object")
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, clipDeep(item, max)]),
    );
  return value;
}

/** Parses Claude Code's hook payload (JSON on stdin); throws PayloadError when it is not one. */
export function parsePayload(raw: string): Record<string, unknown> {
  if (!raw.trim())
    throw new PayloadError("no hook payload on stdin (Claude Code sends one as JSON)");
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (error) {
    throw new PayloadError(
      `the hook payload on stdin is not valid JSON (${(error as Error).message})`,
    );
  }
  if (!data || typeof data !== "object" || Array.isArray(data))
    throw new PayloadError("the hook payload on stdin is not a JSON object");
  return data as Record<string, unknown>;
}
