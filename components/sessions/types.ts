export type {
  SessionDetail,
  SessionOutcome,
  SessionToolCall,
  SessionTurn,
} from "@/lib/schemas/session-rows";
