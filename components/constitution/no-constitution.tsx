import { Card } from "@/components/ui/primitives";

/** Shown until the first version is imported. */
export function NoConstitution() {
  return (
    <Card>
      <p className="text-sm text-slate-600">
        No constitution is loaded yet. The server imports the shipped one when it starts; you can
        also run <code className="font-mono">charter constitution import</code>.
      </p>
    </Card>
  );
}
