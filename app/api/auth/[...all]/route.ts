import { auth } from "@/lib/auth/auth";

// Better Auth owns /api/auth/*: sign-in links, sessions, sign-out.
export const GET = (req: Request) => auth().handler(req);
export const POST = (req: Request) => auth().handler(req);
