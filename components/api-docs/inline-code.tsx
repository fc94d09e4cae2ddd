import { inlineCodeParts } from "./schema";

/** A description with its `code` spans shown as code; everything stays text (React escapes it), never HTML. */
export function InlineCode({ text }: { text: string }) {
  return (
    <>
      {inlineCodeParts(text).map((part, i) =>
        part.code ? (
          <code key={i} className="rounded bg-slate-100 px-1 font-mono text-xs text-slate-800">
            {part.text}
          </code>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}
