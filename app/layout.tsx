import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Charter", template: "%s · Charter" },
  description: "Govern AI agents with a written constitution.",
};

/**
 * Every page is rendered per request: proxy.ts gives each response a fresh CSP nonce
 * that Next puts on its scripts, and a page prerendered at build time would carry
 * scripts without it, which the browser refuses.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  return (
    <html lang="en">
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
