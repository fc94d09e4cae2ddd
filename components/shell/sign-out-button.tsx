"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/primitives";

export function SignOutButton() {
  const router = useRouter();
  const signOut = useMutation({
    mutationFn: async () => {
      const res = await fetch("/api/auth/sign-out", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      if (!res.ok) throw new Error("Sign-out failed.");
    },
    onSuccess: () => {
      router.replace("/sign-in");
      router.refresh();
    },
  });
  return (
    <Button variant="ghost" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </Button>
  );
}
