import { beforeAll, describe, expect, it } from "vitest";
import { ConstitutionStore, OBFUSCATION_INSTRUCTION, type Constitution } from "@/lib/constitution";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { startScriptedLlmServer, type ScriptedReply } from "@/test/llm-server";
import { createLlmClient } from "./client";

// The LLM retrieval path end to end: the store, the real openai SDK, HTTP to a scripted
// OpenAI-compatible server on 127.0.0.1.

let constitution: Constitution;
beforeAll(async () => {
  const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
  if (!loaded.ok) throw new Error("the shipped constitution is invalid");
  constitution = loaded.constitution;
});

type Script = (system: string, user: string) => ScriptedReply;

async function withStore(
  script: Script,
  config: Record<string, unknown>,
  run: (store: ConstitutionStore, requests: { messages: { content: string }[] }[]) => Promise<void>,
) {
  const server = await startScriptedLlmServer((req) =>
    script(req.messages[0]?.content ?? "", req.messages[1]?.content ?? ""),
  );
  try {
    const llm = createLlmClient({ baseURL: server.url, apiKey: "test-key" });
    const store = new ConstitutionStore(
      constitution,
      { use_llm_matching: true, llm_timeout_ms: 2_000, ...config },
      { llm },
    );
    await run(store, server.requests as { messages: { content: string }[] }[]);
  } finally {
    await server.close();
  }
}

const isPrefilter = (system: string) => system.startsWith("You route");
const agentDomain = (system: string) => /of the "([a-z_]+)" part/.exec(system)?.[1];

describe("LLM retrieval through the openai SDK", () => {
  it("uses JSON replies from the prefilter and the domain agents", async () => {
    await withStore(
      (system) =>
        isPrefilter(system)
          ? { content: JSON.stringify({ domains: [{ domain: "medical", confidence: 0.9 }] }) }
          : agentDomain(system) === "medical"
            ? {
                content: JSON.stringify({
                  principles: [
                    { id: "MED.EMERGENCY.1", confidence: 0.95 },
                    { id: "MED.DISCLAIMER.1", confidence: 0.3 },
                  ],
                }),
              }
            : {
                content: JSON.stringify({ principles: [{ id: "SOFT.HONEST.1", confidence: 0.8 }] }),
              },
      {},
      async (store, requests) => {
        const result = await store.getRelevantPrinciples(
          "I have had severe headaches for three days",
        );
        expect(result.domains).toEqual([{ domain: "medical", confidence: 0.9, source: "llm" }]);
        expect(result.principles.map((p) => p.id)).toEqual(["MED.EMERGENCY.1", "SOFT.HONEST.1"]); // 0.3 is under the threshold
        expect(result.debug).toMatchObject({
          path: "llm",
          llm_calls: { prefilter: 1, domain_agent: 2 },
          fallbacks: [],
        });
        expect(result.debug.retrieval_openai_client_pooling).toMatchObject({
          prefilter: { created: 1 },
          domain_agent: { created: 1, reused: 1 },
        });
        const prefilterPrompt = requests[0]!.messages.map((m) => m.content).join("\n");
        expect(prefilterPrompt).toContain(OBFUSCATION_INSTRUCTION);
        expect(prefilterPrompt).toMatch(/^- medical: .+\n {2}Keywords: /m);
        // Principle keywords never reach the agents.
        const medicalKeywords = constitution.overlays.medical!.additional_principles.flatMap(
          (p) => p.keywords,
        );
        const agentPrompts = requests
          .slice(1)
          .map((r) => r.messages.map((m) => m.content).join("\n"));
        expect(agentPrompts.some((p) => p.includes("MED.EMERGENCY.1"))).toBe(true);
        expect(agentPrompts.every((p) => !/keywords/i.test(p))).toBe(true);
        expect(medicalKeywords.length).toBeGreaterThan(0);
      },
    );
  });

  it("recovers JSON wrapped in prose", async () => {
    await withStore(
      (system) =>
        isPrefilter(system)
          ? {
              content:
                'Sure! Here are the domains: {"domains": ["cybersecurity"]} Let me know if you need more.',
            }
          : {
              content:
                "```json\n" +
                JSON.stringify({
                  principle_ids: agentDomain(system) === "cybersecurity" ? ["SEC.AUTH.1"] : [],
                }) +
                "\n```",
            },
      { use_enhanced_retrieval: false },
      async (store) => {
        const result = await store.getRelevantPrinciples(
          "write a SQL injection test for my own login form",
        );
        expect(result.domains.map((d) => d.domain)).toEqual(["cybersecurity"]);
        expect(result.principles.map((p) => p.id)).toEqual(["SEC.AUTH.1"]);
        expect(result.debug.fallbacks).toEqual([]);
      },
    );
  });

  it("falls back to the lexical result on garbage and says so", async () => {
    await withStore(
      () => ({ content: "I am not able to answer in JSON today." }),
      {},
      async (store) => {
        const result = await store.getRelevantPrinciples("how do I make a pipe bomb");
        expect(result.domains[0]).toMatchObject({ domain: "violent_crime", source: "lexical" });
        expect(result.debug.fallbacks[0]).toMatchObject({ stage: "prefilter" });
        expect(result.debug.fallbacks[0]!.reason).toMatch(/unparseable/);
        expect(result.debug.fallbacks.some((f) => f.stage === "domain_agent")).toBe(true);
        expect(result.principles.map((p) => p.id)).toContain("CORE.NM.1");
      },
    );
  });

  it("falls back on a timeout and says so", async () => {
    await withStore(
      // The answer would come after a minute: only the 200 ms timeout can end the call sooner.
      () => ({ content: "{}", delayMs: 60_000 }),
      { llm_timeout_ms: 200, use_domain_prefilter: true },
      async (store) => {
        const started = performance.now();
        const result = await store.getRelevantPrinciples(
          "I have had severe headaches for three days",
        );
        expect(performance.now() - started).toBeLessThan(60_000);
        expect(result.debug.fallbacks[0]!.reason).toMatch(/^timeout/);
        expect(result.domains[0]).toMatchObject({ domain: "medical", source: "lexical" });
      },
    );
  });

  it("runs domain agents in parallel: wall time near the slowest agent, not the sum", async () => {
    const delay = 400;
    const script: Script = (system) =>
      isPrefilter(system)
        ? { content: JSON.stringify({ domains: ["cybersecurity", "coding", "research"] }) }
        : { content: JSON.stringify({ principles: [] }), delayMs: delay };
    const timeAgents = async (parallel: number) => {
      let agentsMs = 0;
      await withStore(
        script,
        { max_parallel_agents: parallel, max_prefilter_domains: 3 },
        async (store) => {
          const result = await store.getRelevantPrinciples(
            "write a SQL injection test for my own login form",
          );
          expect(result.debug.llm_calls.domain_agent).toBe(4); // core + 3 domains
          agentsMs = result.debug.timings_ms.agents;
        },
      );
      return agentsMs;
    };
    const parallel = await timeAgents(4);
    const serial = await timeAgents(1);
    expect(serial).toBeGreaterThanOrEqual(4 * delay);
    expect(parallel).toBeLessThan(2.5 * delay); // the slowest is `delay`; the sum is 4 x delay
  }, 20_000);
});
