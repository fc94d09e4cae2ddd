import { DbCallLog } from "@/lib/db/llm-log";

const globalLog = globalThis as unknown as { __charterCallLog?: DbCallLog };

/** The process's LLM call log: every chat and embedding call lands there. */
export function callLog(): DbCallLog {
  globalLog.__charterCallLog ??= new DbCallLog();
  return globalLog.__charterCallLog;
}
