// The policy index in its transferable form (see _index/compiled_index.ts):
// what the policy worker builds and CompiledEnforcer and IndexedEnforcer
// decide from.
export { compiledBuffers, type CompiledIndex } from "./compiled_index.ts";
export { compileIndex as compileEnforcerIndex } from "./build.ts";
export { CompiledLookup, NO_ANSWER } from "./lookup.ts";
