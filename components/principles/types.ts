export type {
  DailyTrust,
  InjectedTurn,
  PrincipleDetail,
  PrincipleText,
  PrincipleUsage,
} from "@/lib/schemas/principle-rows";
