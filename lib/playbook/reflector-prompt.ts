import type { ChatMessage } from "@/lib/constitution/llm-port";
import type { PlaybookEntry } from "./schema";
import { formatPlaybook } from "./playbook";

/** What the reflector sees of a session. */
export type SessionForReflection = {
  turns: {
    prompt: string;
    response: string | null;
    tools: { name: string; succeeded: boolean }[];
  }[];
  injected: PlaybookEntry[];
};

/** The reflector's messages: rate the key points the agent was given, and propose new ones, as an ExtractionResult JSON object. */
export function reflectorMessages(session: SessionForReflection): ChatMessage[] {
  const transcript = session.turns
    .map((t, i) =>
      [
        `Turn ${i + 1}`,
        `User: ${t.prompt}`,
        `Tools: ${t.tools.map((x) => `${x.name} (${x.succeeded ? "ok" : "failed"})`).join(", ") || "none"}`,
        `Agent: ${t.response ?? "(no reply)"}`,
      ].join("\n"),
    )
    .join("\n\n");
  return [
    {
      role: "system",
      content: [
        "You review an AI coding agent's session and curate its playbook of key points (short, reusable lessons).",
        'Rate each key point the agent was given as "helpful" (following it helped), "harmful" (following it led the agent astray) or "neutral" (it did not matter), and add at most 3 new key points the session teaches, each one sentence.',
        'Answer with a JSON object only: {"new_key_points": ["..."], "evaluations": [{"name": "kpt_001", "rating": "helpful"}]}',
      ].join("\n\n"),
    },
    {
      role: "user",
      content: `Key points given to the agent:\n${formatPlaybook(session.injected) || "(none)"}\n\nSession:\n${transcript}`,
    },
  ];
}
