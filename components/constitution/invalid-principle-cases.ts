import type { PrincipleDraft } from "./principle-draft";

/** Invalid edits of a principle in a form, with the field the engine names and its reason: shared by the overlay and core draft tests. */
export function invalidPrincipleCases(
  first: PrincipleDraft,
): [label: string, principle: PrincipleDraft, field: string, reason: string][] {
  return [
    [
      "a priority above 100",
      { ...first, priority: "150" },
      "priority",
      "must be between 1 and 100",
    ],
    ["an empty priority", { ...first, priority: "" }, "priority", "must be a number"],
    ["an empty title", { ...first, title: "" }, "title", "must not be empty"],
    ["an unknown level", { ...first, level: "medium" }, "level", "Invalid option"],
  ];
}
