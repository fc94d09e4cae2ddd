import type { NextConfig } from "next";
import { env } from "./lib/env";
import { BASE_SECURITY_HEADERS, HSTS_HEADER, NO_CONTENT_CSP } from "./lib/http/security-headers";

/** Static assets, the events API and the OTLP endpoint, which proxy.ts does not see (pages and other routes get their headers there). */
const UNPROXIED_PATHS = ["/_next/:path*", "/api/v1/events", "/api/public/otel/v1/traces"];
const staticHeaders = [
  ...Object.entries(BASE_SECURITY_HEADERS).map(([key, value]) => ({ key, value })),
  { key: "content-security-policy", value: NO_CONTENT_CSP },
];

// Validating here makes a bad environment fail `next build` and `next start` at once.
const settings = env();

const nextConfig: NextConfig = {
  // A second build or dev server beside the usual one (say, while the e2e build is in use) can have its own directory.
  distDir: settings.CHARTER_NEXT_DIST_DIR,
  // PGlite ships a wasm build and resolves files relative to its module URL: bundling breaks it.
  // protobufjs finds Buffer and long through an eval'd require that a bundle hides: loaded as
  // it is, it decodes OTLP exports in the server as it does in the tests.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "protobufjs"],
  poweredByHeader: false,
  typedRoutes: false,
  typescript: { ignoreBuildErrors: settings.CHARTER_BUILD_TYPECHECKED === "1" },
  // forbidden() renders app/forbidden.tsx with a 403 status.
  experimental: { authInterrupts: true },
  async headers() {
    return UNPROXIED_PATHS.flatMap((source) => [
      { source, headers: staticHeaders },
      {
        source,
        has: [{ type: "header" as const, key: "x-forwarded-proto", value: "https" }],
        headers: [{ ...HSTS_HEADER }],
      },
    ]);
  },
};

export default nextConfig;
