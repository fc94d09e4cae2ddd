import type { NextConfig } from "next";
import { env } from "./lib/env";

// Validating here makes a bad environment fail `next build` and `next start` at once.
env();

const nextConfig: NextConfig = {
  // PGlite ships a wasm build and resolves files relative to its module URL: bundling breaks it.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter"],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden() renders app/forbidden.tsx with a 403 status.
  experimental: { authInterrupts: true },
};

export default nextConfig;
