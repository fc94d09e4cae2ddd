"use client";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Button, ErrorText, Field, Input } from "@/components/ui/primitives";

export function SignInForm() {
  const [email, setEmail] = useState("");
  const request = useMutation({
    mutationFn: async (address: string) => {
      const res = await fetch("/api/auth/sign-in/magic-link", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: address, callbackURL: "/", errorCallbackURL: "/sign-in?error=link" }),
      });
      if (res.status === 429) throw new Error("Too many requests: wait a minute and try again.");
      if (!res.ok && res.status !== 400 && res.status !== 404) throw new Error("The server could not make a link right now.");
    },
  });
  return (
    <form
      className="mt-6 space-y-4"
      onSubmit={(e) => {
        e.preventDefault();
        request.mutate(email);
      }}
    >
      <Field label="E-mail">
        <Input type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field>
      <Button type="submit" disabled={request.isPending}>
        {request.isPending ? "Asking…" : "Ask for a sign-in link"}
      </Button>
      {request.isError ? <ErrorText>{request.error.message}</ErrorText> : null}
      {request.isSuccess ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          If that address belongs to a Charter user, a sign-in link is now in the server log.
        </p>
      ) : null}
    </form>
  );
}
