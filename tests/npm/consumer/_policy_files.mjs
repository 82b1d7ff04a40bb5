// A temporary model and policy for the consumer scripts: the reference
// model (`r.sub.role == p.sub`) and the given policy text.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MODEL = `[request_definition]
r = sub, obj, act

[policy_definition]
p = sub, obj, act

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = r.obj == p.obj && r.sub.role == p.sub && r.act == p.act
`;

/** Writes both files into a new temporary directory. */
export async function policyFiles(policy) {
  const dir = await mkdtemp(join(tmpdir(), "portcullis-consumer-"));
  const modelPath = join(dir, "model.conf");
  const policyPath = join(dir, "policy.csv");
  await writeFile(modelPath, MODEL);
  await writeFile(policyPath, policy);
  return { dir, modelPath, policyPath };
}
