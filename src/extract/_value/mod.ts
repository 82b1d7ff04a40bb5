// The symbolic string value of the extractors (literal parts, holes and
// where they came from), path joining and the confidence scale.
export {
  composed,
  concat,
  exactText,
  fillHoles,
  fromParts,
  fromText,
  hasHoles,
  HOLE,
  type Hole,
  hole,
  type HoleSource,
  isEmpty,
  keyText,
  literal,
  mapText,
  type Part,
  settleConstants,
  textOf,
  type Value,
} from "./value.ts";
export {
  formatBraces,
  formatPlaceholders,
  formatPrintf,
  formatRust,
} from "./format.ts";
export {
  baseVariable,
  envName,
  hostTemplate,
  withHostDetails,
} from "./host.ts";
export {
  addsPrefix,
  clientPath,
  joinPaths,
  type PathResult,
  routePath,
} from "./path.ts";
export {
  CONFIDENCE,
  type ConfidenceFacts,
  type ConfidenceLevel,
  confidenceLevel,
  confidenceOf,
} from "./confidence.ts";
export {
  bindParameters,
  type CallGraph,
  chainsThroughCallers,
  flowAtSite,
  type Flowed,
  flowingParameters,
  flowThroughCalls,
  MAX_CALL_SITES,
  MAX_FLOW_DEPTH,
} from "./flow.ts";
export { underPrefix } from "./mounted.ts";
