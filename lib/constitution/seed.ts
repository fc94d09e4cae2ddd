import type { Level } from "./schema";

/**
 * Seed 001's tables, as data: the hard constraints and soft norms every Charter
 * constitution ships with, the medical overlay example, and the conflict example.
 * The shipped constitution is checked against these, and tests import them.
 */
export const SEED_HARD_CONSTRAINTS: readonly { id: string; title: string; priority: number }[] = [
  { id: "CORE.NM.1", title: "Non-Maleficence (Physical Harm)", priority: 100 },
  { id: "CORE.CSAM.1", title: "Child Safety", priority: 100 },
  { id: "CORE.NM.2", title: "Non-Maleficence (Illegal)", priority: 95 },
  { id: "CORE.MALWARE.1", title: "Malware Prevention", priority: 95 },
  { id: "CORE.MANIPULATION.1", title: "Ban on Manipulation", priority: 95 },
  { id: "CORE.PRIV.1", title: "Privacy Protection", priority: 90 },
  { id: "CORE.DISINFO.1", title: "Disinformation Prevention", priority: 90 },
  { id: "CORE.DUALUSE.1", title: "Dual-Use Information Leakage Prevention", priority: 91 },
];

export const SEED_SOFT_NORMS: readonly { id: string; title: string; priority: number }[] = [
  { id: "SOFT.HONEST.1", title: "Honesty and Accuracy", priority: 70 },
  { id: "SOFT.VULNERABLE.1", title: "Vulnerable Protection", priority: 70 },
  { id: "SOFT.HELPFUL.1", title: "Helpfulness", priority: 65 },
  { id: "SOFT.BALANCED.1", title: "Balanced Perspective", priority: 60 },
  { id: "SOFT.AUTONOMY.1", title: "User Autonomy", priority: 60 },
  { id: "SOFT.CLARITY.1", title: "Clear Communication", priority: 40 },
];

/** Seed 001's level bands: hard constraints 85-100, soft norms 30-84. */
export const LEVEL_BANDS: Record<Level, { min: number; max: number }> = { hard: { min: 85, max: 100 }, soft: { min: 30, max: 84 } };

export const SEED_MEDICAL_OVERLAY = {
  domain: "medical",
  priority_overrides: { "SOFT.HONEST.1": 85, "SOFT.HELPFUL.1": 75 },
  additional_principles: [
    { id: "MED.DISCLAIMER.1", level: "soft", priority: 80, title: "Medical Disclaimer", rule: "Include appropriate disclaimers and recommend professional consultation" },
    { id: "MED.EMERGENCY.1", level: "hard", priority: 100, title: "Medical Emergency Recognition", rule: "In case of medical emergency, immediately recommend emergency services" },
  ],
} as const;

/** Seed 001's conflict example: the higher-priority soft norm prevails. */
export const SEED_CONFLICT_EXAMPLE = {
  a: { id: "CORE.HELPFUL.1", level: "soft", priority: 65, domain: null },
  b: { id: "MED.DISCLAIMER.1", level: "soft", priority: 80, domain: "medical" },
  winner: "MED.DISCLAIMER.1",
} as const;

/** The 20 domains seed 001 lists overlays for. */
export const SEED_DOMAINS = [
  "medical", "legal", "financial", "education", "mental_health", "healthcare", "children", "research", "creative", "cybersecurity",
  "emergency", "enterprise", "journalism", "science", "political", "relationships", "gaming", "coding", "customer_service", "violent_crime",
] as const;
