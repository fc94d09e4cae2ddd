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
        body: JSON.stringify({ email: address, callbackURL: "/", errorCallbackURL: "/sign-in" }),
      });
      if (res.status === 429) throw new Error("Too many requests: wait a minute and try again.");
      if (res.status === 400) throw new Error("Enter a valid e-mail address.");
      if (res.status === 403) {
        const body = (await res.json().catch(() => null)) as { message?: unknown } | null;
        throw new Error(
          typeof body?.message === "string"
            ? body.message
            : "This address is not invited to Charter.",
        );
      }
      if (!res.ok) throw new Error("The server could not answer right now.");
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
        <Input
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
      </Field>
      <Button type="submit" disabled={request.isPending}>
        {request.isPending ? "Checking…" : "Check my address"}
      </Button>
      {request.isError ? <ErrorText>{request.error.message}</ErrorText> : null}
      {request.isSuccess ? (
        <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
          That address is invited. Charter sends no e-mail and writes no links to its log: ask an
          admin for your sign-in link (Users page, Sign-in link).
        </p>
      ) : null}
    </form>
  );
}
