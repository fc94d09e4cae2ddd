import type { getSession } from "@/lib/db/sessions";

/** What the session page shows, as the read model returns it. */
export type SessionDetail = Awaited<ReturnType<typeof getSession>>;
export type SessionTurn = SessionDetail["turns"][number];
export type SessionToolCall = SessionDetail["toolCalls"][number];
export type SessionOutcome = NonNullable<SessionDetail["outcome"]>;
