// Test helper: whether a program the tests call runs on this machine.

/** Whether `command` runs here and succeeds with `args`. */
export async function runs(command: string, args: string[]): Promise<boolean> {
  return await new Deno.Command(command, { args, stdout: "null" }).output()
    .then((output) => output.success, () => false);
}
