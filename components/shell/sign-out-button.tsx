"use client";
import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/primitives";

export function SignOutButton() {
  const signOut = useMutation({
    mutationFn: async () => {
      const res = await fetch("/api/auth/sign-out", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      if (!res.ok) throw new Error("Sign-out failed.");
    },
    onSuccess: () => window.location.assign("/sign-in"),
  });
  return (
    <Button variant="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </Button>
  );
}
