// The model of a database provider: given as text, or read once from a
// file, and parsed to check rows against it.
import { type Model, newModelFromString } from "casbin";
import { readFile } from "node:fs/promises";
import { EnforcerLoadError } from "../_policy/error.ts";
import { messageOf } from "../../_postgres/_sql.ts";

/** The model text, from `model` or read from `modelPath`. */
export async function modelOf(
  options: { model?: string; modelPath?: string },
): Promise<{ text: string; path: string }> {
  if ((options.model === undefined) === (options.modelPath === undefined)) {
    throw new TypeError(
      "Cannot open enforcer provider: give either model or modelPath",
    );
  }
  if (options.model !== undefined) {
    return { text: options.model, path: "model" };
  }
  const path = options.modelPath!;
  try {
    return { text: await readFile(path, "utf8"), path };
  } catch (error) {
    const missing = (error as { code?: unknown }).code === "ENOENT";
    throw new EnforcerLoadError(
      missing ? "NOT_FOUND" : "READ_FAILED",
      `Cannot load model: "${path}" ${
        missing ? "does not exist" : `could not be read (${messageOf(error)})`
      }`,
      { path, cause: error },
    );
  }
}

/** The parsed model; throws `EnforcerLoadError` (`MODEL_INVALID`). */
export function parseModel(text: string, path: string): Model {
  try {
    return newModelFromString(text);
  } catch (error) {
    throw new EnforcerLoadError(
      "MODEL_INVALID",
      `Cannot load model "${path}": ${messageOf(error)}`,
      { path, cause: error },
    );
  }
}
