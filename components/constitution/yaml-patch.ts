// The patcher is pure and shared with the engine (eval suggestions write their edits with it).
export { patchYaml, type YamlEdit } from "@/lib/constitution/yaml-patch";
