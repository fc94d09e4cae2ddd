import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto max-w-lg px-6 py-24 text-center">
      <p className="text-sm font-semibold text-indigo-600">404</p>
      <h1 className="mt-2 text-2xl font-semibold">Nothing here</h1>
      <Link
        href="/"
        className="mt-6 inline-block text-sm font-medium text-indigo-600 hover:underline"
      >
        Back to the overview
      </Link>
    </main>
  );
}
