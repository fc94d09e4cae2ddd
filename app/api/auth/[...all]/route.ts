import { handleAuthRequest } from "@/lib/auth/endpoints";

// Only the Better Auth endpoints Charter's pages use are served; see lib/auth/endpoints.ts.
export const GET = handleAuthRequest;
export const POST = handleAuthRequest;
