import Link from "next/link";

export default function Forbidden() {
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <p className="text-sm font-semibold text-indigo-600">403</p>
      <h1 className="mt-2 text-2xl font-semibold">You do not have access to this page</h1>
      <p className="mt-3 text-slate-600">
        Your role does not include it. An admin can change your role on the Users page.
      </p>
      <Link
        href="/"
        className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline"
      >
        Back to the overview
      </Link>
    </main>
  );
}
