-- Sessions know their agent (Claude Code, Codex, Gemini CLI, Cursor, or a framework
-- reporting through OpenTelemetry) and its version, where the agent tells them. Sessions
-- recorded before are of unknown agent (NULL): nothing in them says which it was.
ALTER TABLE "agent_session" ADD COLUMN "agent" TEXT;
ALTER TABLE "agent_session" ADD COLUMN "agent_version" TEXT;
CREATE INDEX "agent_session_agent_last_event_at_idx" ON "agent_session" ("agent", "last_event_at" DESC);
