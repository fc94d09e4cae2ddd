-- Sessions know their agent (Claude Code, Codex, Gemini CLI, Cursor, or a framework
-- reporting through OpenTelemetry) and its version, where the agent tells them. Sessions
-- recorded before are of unknown agent (NULL): nothing in them says which it was.
ALTER TABLE "agent_session" ADD COLUMN "agent" TEXT;
ALTER TABLE "agent_session" ADD COLUMN "agent_version" TEXT;
CREATE INDEX "agent_session_agent_last_event_at_idx" ON "agent_session" ("agent", "last_event_at" DESC);

-- A prompt whose agent cannot take context at all (Cursor's beforeSubmitPrompt, an
-- OpenTelemetry trace) is "unsupported", not "spooled": nothing went wrong in delivery.
ALTER TABLE "turn" DROP CONSTRAINT "turn_context_delivery_check";
ALTER TABLE "turn" ADD CONSTRAINT "turn_context_delivery_check"
  CHECK ("context_delivery" IN ('delivered', 'spooled', 'imported', 'unsupported', 'none'));
