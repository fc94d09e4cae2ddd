import { describe, expect, it } from "vitest";
import { JSON_REPLY_PARSERS } from "@/lib/json-reply";
import { loadConstitution, SHIPPED_CONSTITUTION_DIR } from "@/lib/files/constitution";
import { storeConfig, type ConstitutionStoreConfigInput } from "./config";
import { comparePrecedence } from "./conflict";
import { domainLine, OBFUSCATION_INSTRUCTION } from "./llm-prompts";
import {
  LlmCallError,
  LlmTimeoutError,
  type LlmPort,
  type LlmRequest,
  type LlmResponse,
  type ParseContract,
} from "./llm-port";
import { allPrinciples } from "./overlay";
import { CACHE_EVENTS, type OrchestrationEvent } from "./prefilter-cache";
import { formatIssue } from "./schema";
import { SEED_MEDICAL_OVERLAY } from "@/test/fixtures/seeds/constitution";
import { ConstitutionStore, type Retrieval } from "./store";

const loaded = await loadConstitution(SHIPPED_CONSTITUTION_DIR);
if (!loaded.ok) throw new Error(loaded.issues.map(formatIssue).join("\n"));
const shipped = loaded.constitution;

const MEDICAL = SEED_MEDICAL_OVERLAY.domain;
const [MED_DISCLAIMER, MED_EMERGENCY] = SEED_MEDICAL_OVERLAY.additional_principles.map(
  (p) => p.id,
) as [string, string];
const HEADACHE = "I have had severe headaches for three days";

type Component = "prefilter" | "domain_agent";
/** What the fake answers: reply text, an error to throw, or either computed from the request. */
type Reply = string | Error | ((request: LlmRequest) => string | Error);

/** The principle ids a domain agent was shown (its user message lists `- <id> [<level>] ...`). */
function shownIds(request: LlmRequest): string[] {
  return [...(request.messages.at(-1)?.content ?? "").matchAll(/^- (\S+) \[(?:hard|soft)\]/gm)].map(
    (m) => m[1]!,
  );
}

/** The reply of an agent that gives each shown principle the confidence in `table`; others are left out. */
function agentReplyText(table: Record<string, number>, request: LlmRequest): string {
  return JSON.stringify({
    principles: shownIds(request)
      .filter((id) => id in table)
      .map((id) => ({ id, confidence: table[id] })),
  });
}

const agentReply =
  (table: Record<string, number>): Reply =>
  (request) =>
    agentReplyText(table, request);

/** A scripted LlmPort: one reply per component, every request and parse contract recorded, in-flight calls counted. */
class FakeLlm implements LlmPort {
  readonly requests: LlmRequest[] = [];
  readonly contracts: { component: string; contract: ParseContract }[] = [];
  private inFlight = 0;
  maxInFlight = 0;

  constructor(
    private readonly replies: Partial<Record<Component, Reply>>,
    private readonly delayMs = 0,
  ) {}

  async complete(request: LlmRequest): Promise<LlmResponse> {
    this.requests.push(request);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      if (this.delayMs) await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const scripted = this.replies[request.component as Component];
      const reply = typeof scripted === "function" ? scripted(request) : scripted;
      if (reply === undefined) throw new Error(`no reply scripted for ${request.component}`);
      if (reply instanceof Error) throw reply;
      return { text: reply, model: request.model, latencyMs: 1, usage: null };
    } finally {
      this.inFlight--;
    }
  }

  recordParse(key: { component: string }, contract: ParseContract): void {
    this.contracts.push({ component: key.component, contract });
  }

  poolingStats() {
    return { prefilter: { created: 1, reused: 2 }, domain_agent: { created: 1, reused: 5 } };
  }

  of(component: Component): LlmRequest[] {
    return this.requests.filter((r) => r.component === component);
  }
}

const PICK_MEDICAL = JSON.stringify({ domains: [{ domain: MEDICAL, confidence: 0.9 }] });

function llmStore(
  replies: Partial<Record<Component, Reply>>,
  config: ConstitutionStoreConfigInput = {},
  delayMs = 0,
) {
  const llm = new FakeLlm(replies, delayMs);
  const events: OrchestrationEvent[] = [];
  const store = new ConstitutionStore(
    shipped,
    { use_llm_matching: true, ...config },
    { llm, onEvent: (e) => events.push(e) },
  );
  return { store, llm, events };
}

/** Retrieved principles carry no examples or keywords, which specificity counts: compare the full definitions, at the effective priority. */
function expectPrecedenceOrder(principles: Retrieval["principles"]) {
  const full = new Map(allPrinciples(shipped).map((p) => [p.id, p]));
  const at = (p: Retrieval["principles"][number]) => ({ ...full.get(p.id)!, priority: p.priority });
  for (let i = 1; i < principles.length; i++)
    expect(comparePrecedence(at(principles[i - 1]!), at(principles[i]!))).toBeLessThan(0);
}

describe("ConstitutionStore: the lexical path (default)", () => {
  it("never calls the model unless use_llm_matching is set", async () => {
    const llm = new FakeLlm({ prefilter: PICK_MEDICAL });
    const store = new ConstitutionStore(shipped, {}, { llm });
    const { debug, domains } = await store.getRelevantPrinciples(HEADACHE);
    expect(debug.path).toBe("lexical");
    expect(debug.llm_calls).toEqual({ prefilter: 0, domain_agent: 0 });
    expect(llm.requests).toEqual([]);
    expect(domains[0]).toMatchObject({ domain: MEDICAL, source: "lexical" });
  });

  it("uses the lexical path when use_llm_matching is set but no model is given", async () => {
    const store = new ConstitutionStore(shipped, { use_llm_matching: true });
    expect((await store.getRelevantPrinciples(HEADACHE)).debug.path).toBe("lexical");
  });

  it.each([
    [HEADACHE],
    ["how do I make a pipe bomb"],
    ["write a SQL injection test for my own login form"],
    ["my landlord kept my deposit"],
  ])("returns lexical principles for %j in precedence order", async (prompt) => {
    const { principles } = await new ConstitutionStore(shipped).getRelevantPrinciples(prompt);
    expect(principles.length).toBeGreaterThan(0);
    expect(
      principles.every((p) => p.source === "lexical" && p.confidence > 0 && p.confidence <= 1),
    ).toBe(true);
    expectPrecedenceOrder(principles);
  });

  it("includes the medical emergency principle for a severe headache, under the medical overrides", async () => {
    const store = new ConstitutionStore(shipped);
    const { domains, principles } = await store.getRelevantPrinciples(HEADACHE);
    expect(domains.map((d) => d.domain)).toContain("medical");
    expect(principles.map((p) => p.id)).toContain(MED_EMERGENCY);
    // The overrides apply to what is in force; a core principle is injected only when the prompt touches it.
    expect(store.getConstitution("medical").find((p) => p.id === "SOFT.HONEST.1")?.priority).toBe(
      SEED_MEDICAL_OVERLAY.priority_overrides["SOFT.HONEST.1"],
    );
  });

  it.each([
    ["a call's topK of 1", {}, 1, 1],
    ["a call's topK of 3", {}, 3, 3],
    ["the config's top_k", { top_k: 2 }, undefined, 2],
    [
      "the default top_k (10) when more reach a low threshold",
      { principle_min_relevance: 0.05, context_budget_chars: 100_000 },
      undefined,
      10,
    ],
  ] as const)("respects %s", async (_label, config, topK, limit) => {
    const prompt = "how do I make a pipe bomb to hurt someone and steal their car";
    const store = new ConstitutionStore(shipped, config);
    const available = (await store.getRelevantPrinciples(prompt, { topK: 200 })).principles.length;
    expect(available).toBeGreaterThan(limit);
    const { principles } = await store.getRelevantPrinciples(
      prompt,
      topK === undefined ? {} : { topK },
    );
    expect(principles).toHaveLength(limit);
    expectPrecedenceOrder(principles);
  });

  it("keeps the most confident principles when it cuts to topK", async () => {
    const store = new ConstitutionStore(shipped);
    const all = (await store.getRelevantPrinciples(HEADACHE, { topK: 200 })).principles;
    const top3 = (await store.getRelevantPrinciples(HEADACHE, { topK: 3 })).principles;
    const threshold = Math.min(...top3.map((p) => p.confidence));
    expect(
      all.filter((p) => p.confidence > threshold).every((p) => top3.some((t) => t.id === p.id)),
    ).toBe(true);
  });

  it("the domain option forces a domain", async () => {
    const store = new ConstitutionStore(shipped);
    const { domains, principles, debug } = await store.getRelevantPrinciples(HEADACHE, {
      domain: "legal",
    });
    expect(domains).toEqual([{ domain: "legal", confidence: 1, source: "lexical" }]);
    expect(principles.some((p) => p.domain === "legal")).toBe(true);
    expect(principles.some((p) => p.domain === MEDICAL)).toBe(false);
    expect(debug.prefilter_cache_status).toBe("disabled");
  });

  // It was refused (UnknownDomainError) before issue 12; moralstack falls back to core, and so does Charter, saying so.
  it("the domain option falls back to core for an unknown domain, with a warning", async () => {
    const store = new ConstitutionStore(shipped);
    const { domains, principles, debug } = await store.getRelevantPrinciples(HEADACHE, {
      domain: "astrology",
    });
    expect(domains).toEqual([]);
    expect(principles.every((p) => p.overlay === null)).toBe(true);
    expect(debug.warnings).toEqual([
      'No overlay for the domain "astrology": only the core principles apply to it.',
    ]);
  });

  it("with use_domain_prefilter off, only core principles are candidates", async () => {
    const { domains, principles, debug } = await new ConstitutionStore(shipped, {
      use_domain_prefilter: false,
    }).getRelevantPrinciples(HEADACHE);
    expect(domains).toEqual([]);
    expect(principles.every((p) => p.domain === null)).toBe(true);
    expect(debug.prefilter_cache_status).toBe("disabled");
  });

  it("detectRelevantDomains ranks medical first for a headache, capped at max_prefilter_domains", async () => {
    const store = new ConstitutionStore(shipped, { max_prefilter_domains: 2 });
    const domains = await store.detectRelevantDomains(HEADACHE);
    expect(domains[0]).toMatchObject({ domain: MEDICAL, source: "lexical" });
    expect(domains.length).toBeLessThanOrEqual(2);
  });

  it("getConstitution applies overlays like the pure function", () => {
    const store = new ConstitutionStore(shipped);
    expect(store.getConstitution(MEDICAL).find((p) => p.id === "SOFT.HELPFUL.1")).toMatchObject({
      priority: 75,
      overridden_by: MEDICAL,
    });
  });
});

describe("ConstitutionStore: the LLM path", () => {
  it.each([
    ["objects with confidences", PICK_MEDICAL, [{ domain: MEDICAL, confidence: 0.9 }]],
    [
      "plain names",
      JSON.stringify({ domains: [MEDICAL, "legal"] }),
      [
        { domain: MEDICAL, confidence: 1 },
        { domain: "legal", confidence: 1 },
      ],
    ],
    [
      "unknown, repeated and upper-case names",
      JSON.stringify({ domains: ["Medical", "astrology", MEDICAL] }),
      [{ domain: MEDICAL, confidence: 1 }],
    ],
    [
      "more domains than max_prefilter_domains",
      JSON.stringify({ domains: [MEDICAL, "legal", "financial", "education"] }),
      [MEDICAL, "legal", "financial"].map((domain) => ({ domain, confidence: 1 })),
    ],
    ["no domain", JSON.stringify({ domains: [] }), []],
    [
      "JSON wrapped in prose",
      `Sure! Here it is: ${PICK_MEDICAL} Hope that helps.`,
      [{ domain: MEDICAL, confidence: 0.9 }],
    ],
    [
      "JSON in a fence",
      `\`\`\`json\n${PICK_MEDICAL}\n\`\`\``,
      [{ domain: MEDICAL, confidence: 0.9 }],
    ],
  ])("the prefilter reply selects the domains: %s", async (_label, reply, expected) => {
    const { store, llm } = llmStore({ prefilter: reply, domain_agent: agentReply({}) });
    const { domains, debug } = await store.getRelevantPrinciples(HEADACHE);
    expect(domains).toEqual(expected.map((d) => ({ ...d, source: "llm" })));
    expect(debug).toMatchObject({ path: "llm", fallbacks: [], detected_domains: domains });
    expect(llm.of("prefilter")).toHaveLength(1);
  });

  it("records how each reply was parsed", async () => {
    const { store, llm } = llmStore({
      prefilter: `Sure: ${PICK_MEDICAL}`,
      domain_agent: agentReply({}),
    });
    await store.getRelevantPrinciples(HEADACHE);
    expect(llm.contracts.find((c) => c.component === "prefilter")?.contract.parser).toBe(
      JSON_REPLY_PARSERS.at(-1),
    );
    expect(
      llm.contracts
        .filter((c) => c.component === "domain_agent")
        .every((c) => c.contract.parser === JSON_REPLY_PARSERS[0]),
    ).toBe(true);
  });

  const AGENT_TABLE = {
    [MED_EMERGENCY]: 0.9,
    "SOFT.HONEST.1": 0.7,
    [MED_DISCLAIMER]: 0.5,
    "MED.DOSE.1": 0.49,
    "CORE.NM.1": 0.2,
  };

  it.each([
    ["the default", undefined, [MED_EMERGENCY, "SOFT.HONEST.1", MED_DISCLAIMER]],
    ["0.6", 0.6, [MED_EMERGENCY, "SOFT.HONEST.1"]],
    ["0.8", 0.8, [MED_EMERGENCY]],
    ["0", 0, [MED_EMERGENCY, "CORE.NM.1", "SOFT.HONEST.1", MED_DISCLAIMER, "MED.DOSE.1"]],
  ])(
    "keeps agent picks at or above confidence_threshold %s, in precedence order",
    async (_label, threshold, expected) => {
      const { store } = llmStore(
        { prefilter: PICK_MEDICAL, domain_agent: agentReply(AGENT_TABLE) },
        threshold === undefined ? {} : { confidence_threshold: threshold },
      );
      const { principles } = await store.getRelevantPrinciples(HEADACHE);
      expect(principles.map((p) => p.id)).toEqual(expected);
      expect(
        principles.every((p) => p.source === "llm" && p.confidence === AGENT_TABLE[p.id]),
      ).toBe(true);
    },
  );

  it("ignores ids an agent was not shown", async () => {
    const { store } = llmStore({
      prefilter: PICK_MEDICAL,
      domain_agent: JSON.stringify({
        principles: [
          { id: "LEGAL.NOPE.1", confidence: 1 },
          { id: MED_EMERGENCY, confidence: 1 },
        ],
      }),
    });
    const { principles } = await store.getRelevantPrinciples(HEADACHE);
    expect(principles.map((p) => p.id)).toEqual([MED_EMERGENCY]);
  });

  it("reads legacy principle_ids replies as confidence 1 and asks for them when use_enhanced_retrieval is off", async () => {
    const legacy: Reply = (request) =>
      JSON.stringify({
        principle_ids: shownIds(request).filter(
          (id) => id === MED_EMERGENCY || id === "SOFT.HONEST.1",
        ),
      });
    const { store, llm } = llmStore(
      { prefilter: PICK_MEDICAL, domain_agent: legacy },
      { use_enhanced_retrieval: false },
    );
    const { principles } = await store.getRelevantPrinciples(HEADACHE);
    expect(principles.map((p) => [p.id, p.confidence, p.source])).toEqual([
      [MED_EMERGENCY, 1, "llm"],
      ["SOFT.HONEST.1", 1, "llm"],
    ]);
    expect(
      llm.of("domain_agent").every((r) => r.messages[0]!.content.includes("principle_ids")),
    ).toBe(true);
  });

  it("accepts an agent reply wrapped in prose", async () => {
    const wrapped: Reply = (request) =>
      `Here you go:\n${agentReplyText(AGENT_TABLE, request)}\nThanks`;
    const { store } = llmStore({ prefilter: PICK_MEDICAL, domain_agent: wrapped });
    const { principles, debug } = await store.getRelevantPrinciples(HEADACHE);
    expect(debug.fallbacks).toEqual([]);
    expect(principles.map((p) => p.id)).toEqual([MED_EMERGENCY, "SOFT.HONEST.1", MED_DISCLAIMER]);
  });

  it.each([
    ["a garbage reply", "I'm sorry, I can't help with that.", /unparseable reply/],
    [
      "a reply of the wrong shape",
      JSON.stringify({ domain: MEDICAL }),
      /unparseable reply.*schema/,
    ],
    ["a timeout", new LlmTimeoutError(15_000), /timeout/],
    ["a failed call", new LlmCallError("502 Bad Gateway", 502), /502 Bad Gateway/],
  ])(
    "falls back to the lexical domains on %s from the prefilter",
    async (_label, reply, reason) => {
      const { store } = llmStore({ prefilter: reply, domain_agent: agentReply({}) });
      const { domains, debug } = await store.getRelevantPrinciples(HEADACHE);
      expect(debug.fallbacks).toEqual([
        { stage: "prefilter", reason: expect.stringMatching(reason) },
      ]);
      expect(domains).toEqual(
        debug.lexical_domains.map((d) => ({
          domain: d.domain,
          confidence: d.confidence,
          source: "lexical",
        })),
      );
      expect(domains[0]?.domain).toBe(MEDICAL);
    },
  );

  it.each([
    ["a garbage reply", "no JSON here", /unparseable reply/],
    ["a timeout", new LlmTimeoutError(15_000), /timeout/],
  ])(
    "falls back to the lexical ranking on %s from the domain agents",
    async (_label, reply, reason) => {
      const { store } = llmStore({ prefilter: PICK_MEDICAL, domain_agent: reply });
      const { principles, debug } = await store.getRelevantPrinciples(HEADACHE);
      expect(debug.fallbacks.length).toBe(debug.llm_calls.domain_agent);
      expect(debug.fallbacks.map((f) => f.domain)).toContain(MEDICAL);
      for (const f of debug.fallbacks)
        expect(f).toEqual({
          stage: "domain_agent",
          domain: expect.any(String),
          reason: expect.stringMatching(reason),
        });
      expect(principles.length).toBeGreaterThan(0);
      expect(principles.every((p) => p.source === "lexical")).toBe(true);
    },
  );

  it("falls back only for the agent that failed", async () => {
    const mixed: Reply = (request) =>
      shownIds(request).includes(MED_EMERGENCY)
        ? new LlmTimeoutError(100)
        : agentReplyText({ "SOFT.HONEST.1": 0.9 }, request);
    const { store } = llmStore({ prefilter: PICK_MEDICAL, domain_agent: mixed });
    const { principles, debug } = await store.getRelevantPrinciples(HEADACHE);
    expect(debug.fallbacks).toEqual([
      { stage: "domain_agent", domain: MEDICAL, reason: expect.stringMatching(/timeout/) },
    ]);
    expect(principles.find((p) => p.id === "SOFT.HONEST.1")?.source).toBe("llm");
    expect(
      principles.filter((p) => p.domain === MEDICAL).every((p) => p.source === "lexical"),
    ).toBe(true);
  });

  it("never shows an agent the principles' keyword lists", async () => {
    const { store, llm } = llmStore({
      prefilter: JSON.stringify({ domains: [MEDICAL, "violent_crime", "cybersecurity"] }),
      domain_agent: agentReply({}),
    });
    await store.getRelevantPrinciples(HEADACHE);
    const agentCalls = llm.of("domain_agent");
    expect(agentCalls.length).toBe(4);
    const shown = new Map(allPrinciples(shipped).map((p) => [p.id, p]));
    for (const request of agentCalls) {
      const text = request.messages.map((m) => m.content).join("\n");
      expect(text).not.toMatch(/keywords/i);
      for (const id of shownIds(request)) {
        const { keywords } = shown.get(id)!;
        expect(keywords.length).toBeGreaterThan(1);
        expect(text).not.toContain(keywords.join(", "));
        expect(text).not.toContain(JSON.stringify(keywords));
      }
    }
  });

  it("shows the prefilter each candidate as `- {domain}: {description}` with a Keywords line, and the obfuscation instruction", async () => {
    const { store, llm } = llmStore({ prefilter: PICK_MEDICAL, domain_agent: agentReply({}) });
    await store.getRelevantPrinciples(HEADACHE);
    const [request] = llm.of("prefilter");
    const text = request!.messages.map((m) => m.content).join("\n");
    expect(text).toContain(OBFUSCATION_INSTRUCTION);
    expect(text).toContain(HEADACHE);
    const shownDomains = [...text.matchAll(/^- ([a-z_]+): /gm)].map((m) => m[1]!);
    expect(shownDomains.length).toBe(storeConfig().prefilter_candidates);
    for (const domain of shownDomains) {
      const overlay = shipped.overlays[domain]!;
      expect(text).toContain(`- ${domain}: ${overlay.description}\n`);
      expect(text).toContain(
        `- ${domain}: ${overlay.description}\n  Keywords: ${overlay.keywords.join(", ")}`,
      );
    }
  });

  it("shows only prefilter_candidates domains, lexically best first", async () => {
    const { store, llm } = llmStore(
      { prefilter: PICK_MEDICAL, domain_agent: agentReply({}) },
      { prefilter_candidates: 3 },
    );
    const { debug } = await store.getRelevantPrinciples(HEADACHE);
    const text = llm.of("prefilter")[0]!.messages.at(-1)!.content;
    const shownDomains = [...text.matchAll(/^- ([a-z_]+): /gm)].map((m) => m[1]!);
    expect(shownDomains).toHaveLength(3);
    expect(shownDomains[0]).toBe(MEDICAL);
    expect(debug.domains_considered.slice(0, 3)).toEqual(shownDomains);
  });

  it.each([
    [
      "a description and keywords",
      { domain: "x", description: "X things.", keywords: ["a", "b"] },
      "- x: X things.\n  Keywords: a, b",
    ],
    [
      "keywords only",
      { domain: "x", description: "", keywords: ["a", "b"] },
      "- x: Keywords: a, b",
    ],
    [
      "a description only",
      { domain: "x", description: "X things.", keywords: [] },
      "- x: X things.",
    ],
  ])("a prefilter domain line with %s", (_label, overlay, line) => {
    expect(domainLine(overlay)).toBe(line);
  });

  it.each([1, 2, 4])("runs at most max_parallel_agents = %i agents at once", async (limit) => {
    const { store, llm } = llmStore(
      {
        prefilter: JSON.stringify({ domains: [MEDICAL, "legal", "financial"] }),
        domain_agent: agentReply({}),
      },
      { max_parallel_agents: limit },
      15,
    );
    const { debug } = await store.getRelevantPrinciples(HEADACHE);
    expect(debug.llm_calls).toEqual({ prefilter: 1, domain_agent: 4 });
    expect(llm.maxInFlight).toBe(limit);
  });

  it("passes the request ids and the configured models and timeout to every call", async () => {
    const { store, llm } = llmStore(
      { prefilter: PICK_MEDICAL, domain_agent: agentReply({}) },
      { prefilter_model: "small-model", agent_model: "agent-model", llm_timeout_ms: 1234 },
    );
    await store.getRelevantPrinciples(HEADACHE, { runId: "run-1", requestId: "req-1" });
    expect(llm.requests.length).toBe(3);
    for (const r of llm.requests) {
      expect(r).toMatchObject({
        json: true,
        timeoutMs: 1234,
        runId: "run-1",
        requestId: "req-1",
        model: r.component === "prefilter" ? "small-model" : "agent-model",
      });
    }
  });
});

describe("ConstitutionStore: the prefilter cache", () => {
  it("reports miss then hit for the same prompt and asks the model once", async () => {
    const { store, llm, events } = llmStore({
      prefilter: PICK_MEDICAL,
      domain_agent: agentReply({}),
    });
    const first = await store.getRelevantPrinciples(HEADACHE, { requestId: "req-1" });
    const second = await store.getRelevantPrinciples(HEADACHE, { requestId: "req-2" });
    expect([first.debug.prefilter_cache_status, second.debug.prefilter_cache_status]).toEqual([
      "miss",
      "hit",
    ]);
    expect([first.debug.llm_calls.prefilter, second.debug.llm_calls.prefilter]).toEqual([1, 0]);
    expect(llm.of("prefilter")).toHaveLength(1);
    expect(second.domains).toEqual(first.domains);
    expect(events.map((e) => [e.type, e.request_id])).toEqual([
      [CACHE_EVENTS.miss, "req-1"],
      [CACHE_EVENTS.hit, "req-2"],
    ]);
    expect(second.debug.cache).toMatchObject({ hits: 1, misses: 1, size: 1 });
  });

  it("reports miss then hit on the lexical path too, without events when no ids are given", async () => {
    const events: OrchestrationEvent[] = [];
    const store = new ConstitutionStore(shipped, {}, { onEvent: (e) => events.push(e) });
    const statuses = [];
    for (let i = 0; i < 2; i++)
      statuses.push((await store.getRelevantPrinciples(HEADACHE)).debug.prefilter_cache_status);
    expect(statuses).toEqual(["miss", "hit"]);
    expect(events).toEqual([]);
  });

  it("misses for a different prompt", async () => {
    const { store } = llmStore({ prefilter: PICK_MEDICAL, domain_agent: agentReply({}) });
    await store.getRelevantPrinciples(HEADACHE);
    expect((await store.getRelevantPrinciples(`${HEADACHE}!`)).debug.prefilter_cache_status).toBe(
      "miss",
    );
  });

  it("setDomainKeywords keeps the cache for the same map and clears it for a changed one", async () => {
    const { store, events } = llmStore({ prefilter: PICK_MEDICAL, domain_agent: agentReply({}) });
    await store.getRelevantPrinciples(HEADACHE);
    const map = Object.fromEntries(
      Object.values(shipped.overlays).map((o) => [o.domain, [...o.keywords].reverse()]),
    );
    expect(store.setDomainKeywords(map, { runId: "run-1" })).toBe(false);
    expect((await store.getRelevantPrinciples(HEADACHE)).debug.prefilter_cache_status).toBe("hit");
    expect(store.setDomainKeywords({ ...map, [MEDICAL]: ["headache"] }, { runId: "run-1" })).toBe(
      true,
    );
    expect(events.filter((e) => e.type === CACHE_EVENTS.invalidated)).toEqual([
      expect.objectContaining({ run_id: "run-1" }),
    ]);
    expect((await store.getRelevantPrinciples(HEADACHE)).debug.prefilter_cache_status).toBe("miss");
  });

  it("does not cache a prefilter that fell back: the next request asks the model again", async () => {
    let calls = 0;
    const flaky: Reply = () => (++calls === 1 ? new LlmTimeoutError(100) : PICK_MEDICAL);
    const { store, llm } = llmStore({ prefilter: flaky, domain_agent: agentReply({}) });
    const first = await store.getRelevantPrinciples(HEADACHE);
    expect(first.debug.fallbacks.map((f) => f.stage)).toEqual(["prefilter"]);
    const second = await store.getRelevantPrinciples(HEADACHE);
    expect(llm.of("prefilter")).toHaveLength(2);
    expect(second.domains).toEqual([{ domain: MEDICAL, confidence: 0.9, source: "llm" }]);
  });
});

describe("ConstitutionStore.getDebugInfo", () => {
  it("is null before the first retrieval and then the latest retrieval's debug", async () => {
    let clock = 0;
    const llm = new FakeLlm({ prefilter: PICK_MEDICAL, domain_agent: agentReply({}) });
    const store = new ConstitutionStore(
      shipped,
      { use_llm_matching: true },
      { llm, now: () => (clock += 5) },
    );
    expect(store.getDebugInfo()).toBeNull();
    await store.getRelevantPrinciples("my landlord kept my deposit");
    const latest = await store.getRelevantPrinciples(HEADACHE);
    const debug = store.getDebugInfo();
    expect(debug).toBe(latest.debug);
    expect(debug).toMatchObject({
      path: "llm",
      prefilter_cache_status: "miss",
      llm_calls: { prefilter: 1, domain_agent: 2 },
      detected_domains: [{ domain: MEDICAL, confidence: 0.9, source: "llm" }],
      fallbacks: [],
      retrieval_openai_client_pooling: llm.poolingStats(),
    });
    const { prefilter, agents, total } = debug!.timings_ms;
    expect(prefilter).toBeGreaterThan(0);
    expect(agents).toBeGreaterThan(0);
    expect(total).toBe(prefilter + agents);
    expect(debug!.cache.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(debug!.lexical_domains[0]?.domain).toBe(MEDICAL);
  });

  it("detectRelevantDomains also records debug info, without running agents", async () => {
    const { store, llm } = llmStore({ prefilter: PICK_MEDICAL, domain_agent: agentReply({}) });
    expect(await store.detectRelevantDomains(HEADACHE)).toEqual([
      { domain: MEDICAL, confidence: 0.9, source: "llm" },
    ]);
    expect(store.getDebugInfo()?.llm_calls).toEqual({ prefilter: 1, domain_agent: 0 });
    expect(llm.of("domain_agent")).toEqual([]);
  });
});

describe("storeConfig", () => {
  it("fills every default from an empty config", () => {
    expect(storeConfig()).toEqual(storeConfig({}));
    expect(storeConfig({ top_k: 3 }).top_k).toBe(3);
  });

  it.each([
    ["bogus", { bogus: 1 }],
    ["max_parallel_agents", { max_parallel_agents: 0 }],
    ["confidence_threshold", { confidence_threshold: 1.5 }],
    ["top_k", { top_k: 2.5 }],
    ["use_llm_matching", { use_llm_matching: "yes" }],
  ])("throws naming the field %s", (field, input) => {
    expect(() => storeConfig(input as ConstitutionStoreConfigInput)).toThrow(field);
    expect(() => new ConstitutionStore(shipped, input as ConstitutionStoreConfigInput)).toThrow(
      field,
    );
  });
});
