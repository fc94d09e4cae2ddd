#!/usr/bin/env node
// The `charter` command. The CLI is TypeScript sharing code with the app, so it runs
// through tsx's loader (which also resolves the `@/` path alias from tsconfig.json).
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
