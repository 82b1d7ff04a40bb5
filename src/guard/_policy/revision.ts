// The revision of a model and policy pair: a content hash, so that a
// decision log names the exact policy that decided, and two processes
// serving the same files report the same revision.

const HEX: readonly string[] = Array.from(
  { length: 256 },
  (_, byte) => byte.toString(16).padStart(2, "0"),
);

function hex(bytes: Uint8Array): string {
  let text = "";
  for (let i = 0; i < bytes.length; i++) text += HEX[bytes[i]!];
  return text;
}

async function sha256(bytes: Uint8Array): Promise<Uint8Array> {
  return new Uint8Array(
    await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>),
  );
}

/**
 * The SHA-256 (hex) of the model's SHA-256 followed by the policy's, so
 * that no pair of files hashes like another pair with the boundary moved,
 * and neither file is copied.
 */
export async function policyRevision(
  model: Uint8Array,
  policy: Uint8Array,
): Promise<string> {
  const [modelHash, policyHash] = await Promise.all([
    sha256(model),
    sha256(policy),
  ]);
  const both = new Uint8Array(64);
  both.set(modelHash, 0);
  both.set(policyHash, 32);
  return hex(await sha256(both));
}
