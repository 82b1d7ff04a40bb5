// What the policy worker does with one load: validate the files exactly as
// the main-thread build does (except the probe, which needs the custom
// functions and runs where they live) and compile the policy index into
// transferable buffers. Also callable in-process, for tests.
import { samplePolicy } from "./probe.ts";
import { buildEnforcer, decodeFile, type ParsedPolicy } from "./build.ts";
import { EnforcerLoadError, type EnforcerLoadErrorCode } from "./error.ts";
import { type CompiledIndex, compileEnforcerIndex } from "../_index/mod.ts";

/** One load: the two texts and what validating them needs. */
export interface CompileRequest {
  modelText: string;
  /** The policy file's bytes (decoded here, off the event loop). */
  policyBytes: Uint8Array;
  modelPath?: string;
  policyPath?: string;
  /** Names of the custom matcher functions (the functions stay home). */
  functionNames: readonly string[];
  allowEmptyPolicy: boolean;
}

/** An {@linkcode EnforcerLoadError} as plain data, to cross a thread. */
export interface LoadErrorData {
  code: EnforcerLoadErrorCode;
  message: string;
  path?: string;
  line?: number;
}

/** The outcome of a load. */
export type CompileResult =
  /** Valid, and the index answers the model's decisions. */
  | {
    kind: "compiled";
    rules: number;
    /** The first rule of each policy type, for the probe. */
    sample: [string, string[][]][];
    index: CompiledIndex;
  }
  /** Valid, but casbin decides this model (or this policy): build it. */
  | { kind: "unsupported"; reason: string }
  /** Invalid files. */
  | { kind: "failed"; error: LoadErrorData };

/** Plain data of a load error (the cause, which may not clone, is left). */
export function loadErrorData(error: EnforcerLoadError): LoadErrorData {
  return {
    code: error.code,
    message: error.message,
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.line === undefined ? {} : { line: error.line }),
  };
}

/** The load error a {@linkcode LoadErrorData} stands for. */
export function loadErrorFrom(data: LoadErrorData): EnforcerLoadError {
  return new EnforcerLoadError(data.code, data.message, {
    path: data.path,
    line: data.line,
  });
}

const standIn = (): boolean => false;

/** Validates a load and compiles its index. Never throws. */
export async function compilePolicy(
  request: CompileRequest,
): Promise<CompileResult> {
  let built;
  try {
    const policyText = await decodeFile(
      request.policyBytes,
      "policy",
      request.policyPath,
      { sliceMs: Number.POSITIVE_INFINITY },
    );
    built = await buildEnforcer(request.modelText, policyText, {
      ...(request.modelPath === undefined
        ? {}
        : { modelPath: request.modelPath }),
      ...(request.policyPath === undefined
        ? {}
        : { policyPath: request.policyPath }),
      allowEmptyPolicy: request.allowEmptyPolicy,
      // Stand-ins, so that the matcher checks and the matcher plan see the
      // same names as at home. No decision runs here.
      functions: Object.fromEntries(
        request.functionNames.map((name) => [name, standIn]),
      ),
      skipProbe: true,
      sliceMs: Number.POSITIVE_INFINITY,
    });
  } catch (error) {
    if (error instanceof EnforcerLoadError) {
      return { kind: "failed", error: loadErrorData(error) };
    }
    return {
      kind: "failed",
      error: {
        code: "POLICY_INVALID",
        message: `Cannot load policy: ${
          error instanceof Error ? error.message : String(error)
        }`,
        ...(request.policyPath === undefined
          ? {}
          : { path: request.policyPath }),
      },
    };
  }
  const compiled = compileEnforcerIndex(built.enforcer);
  if (typeof compiled === "string") {
    return { kind: "unsupported", reason: compiled };
  }
  const sample: [string, string[][]][] = [];
  const model = built.enforcer.getModel().model;
  for (const section of ["p", "g"]) {
    for (const [key, assertion] of model.get(section) ?? []) {
      sample.push([key, samplePolicy(assertion.policy)]);
    }
  }
  return { kind: "compiled", rules: built.rules, sample, index: compiled };
}

/** The sample of a compiled load, as the probe takes it. */
export function sampleOf(
  result: { sample: [string, string[][]][] },
): ParsedPolicy {
  return new Map(result.sample);
}
